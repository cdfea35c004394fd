import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { redact } from '../../../../app/redact.js';
import { ACTION_EXPORT_FORMAT, actionLogFile } from '../../../../main/reports/action-log-export.js';
import { ActionLog, openLogDatabase, type Database } from '../../../../main/store/index.js';

const dirs: string[] = [];
const dbs: Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A log holding writes whose parameters carry secrets and whose answers look like spreadsheet formulas. */
function hostileLog(): ActionLog {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-export-'));
  dirs.push(dir);
  const db = openLogDatabase(dir);
  dbs.push(db);
  let t = Date.parse('2025-05-01T08:00:00Z');
  const log = new ActionLog({ db, file: path.join(dir, 'actions.db'), clock: () => new Date((t += 1000)) });
  log.append({ user: 'ops', siteId: 'lab', system: '=sys1', operation: 'POST /users/create', params: redact({ body: { Name: '@alice', Password: 'Hunter2-very-secret', Role: 'admin' } }), result: 'ok', message: redact('=HYPERLINK("http://evil.example","click")') });
  log.append({ user: 'ops', siteId: 'lab', system: 'sys1', operation: 'POST /iscsi/chap', params: redact({ body: { ChapSecret: 'chap-secret-9876' } }), result: 'refused', message: redact('+echo chap-secret-9876 rejected, "quoted"', ['chap-secret-9876']) });
  return log;
}

const context = { filter: { siteId: 'lab' }, exportedAt: new Date('2025-05-02T09:30:00Z'), exportedBy: 'ops', siteName: (id: string) => (id === 'lab' ? 'Lab, west' : undefined) };

describe('action log export', () => {
  it('CSV: one row per write, every text cell formula-neutralised, RFC 4180 quoting, no secret', () => {
    const records = hostileLog().list({ newestFirst: true });
    const file = actionLogFile('csv', records, context);
    expect(file).toMatchObject({ fileName: 'fleetdeck-actions-2025-05-02T09-30-00-000Z.csv', mimeType: 'text/csv; charset=utf-8' });
    const lines = file.content.split('\r\n');
    expect(lines[0]).toBe('Seq,Sent (UTC),Completed (UTC),Site,Site id,System,User,Operation,Outcome,Parameters,Answer,SHA-256');
    expect(lines).toHaveLength(4); // header, two writes, the final line end
    // Newest first; a cell a spreadsheet would run starts with a quote mark instead.
    expect(lines[1]).toMatch(/^3,2025-05-01T08:00:02.000Z,2025-05-01T08:00:02.000Z,"Lab, west",lab,sys1,ops,POST \/iscsi\/chap,refused,/);
    expect(lines[1]).toContain(`"'+echo [redacted] rejected, ""quoted"""`);
    expect(lines[2]).toContain(`,'=sys1,`);
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(lines[2]).toContain('""Name"":""@alice""');
    expect(file.content).not.toMatch(/Hunter2-very-secret|chap-secret-9876/);
    expect(file.content).toContain('[redacted]');
  });

  it('JSON: the filter, the count and every record with its site name, no chain link, no secret', () => {
    const records = hostileLog().list({ newestFirst: true });
    const file = actionLogFile('json', records, context);
    expect(file.fileName).toBe('fleetdeck-actions-2025-05-02T09-30-00-000Z.json');
    const body = JSON.parse(file.content) as { format: string; filter: unknown; count: number; exportedBy: string; records: Array<Record<string, unknown>> };
    expect(body).toMatchObject({ format: ACTION_EXPORT_FORMAT, exportedAt: '2025-05-02T09:30:00.000Z', exportedBy: 'ops', filter: { siteId: 'lab' }, count: 2 });
    expect(body.records.map((r) => [r.seq, r.siteName, r.result])).toEqual([
      [3, 'Lab, west', 'refused'],
      [1, 'Lab, west', 'ok'],
    ]);
    expect(body.records[1]).toMatchObject({ params: { body: { Name: '@alice', Password: '[redacted]', Role: 'admin' } }, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(body.records[0]).not.toHaveProperty('prevHash');
    expect(file.content).not.toMatch(/Hunter2-very-secret|chap-secret-9876/);
  });
});
