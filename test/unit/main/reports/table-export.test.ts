import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportTable } from '../../../../main/reports/table-export.js';

describe('table export', () => {
  const dirs: string[] = [];
  const dir = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'fleetdeck-table-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const table = { title: 'Capacity planning', columns: ['System', 'Days until full', 'Note'], rows: [['=HYPERLINK("x")', 12.5, null], ['beta', null, 'a, b']] };

  it('writes CSV a spreadsheet will not run, readable only by the user', async () => {
    const file = join(dir(), 'plan.csv');
    const out = await exportTable({ ...table, file, format: 'csv' });
    const text = readFileSync(file, 'utf8');
    expect(text).toBe('System,Days until full,Note\r\n"\'=HYPERLINK(""x"")",12.5,\r\nbeta,,"a, b"\r\n');
    expect(out).toMatchObject({ path: file, bytes: Buffer.byteLength(text) });
    expect(out.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('writes JSON rows keyed by the column labels', async () => {
    const file = join(dir(), 'plan.json');
    await exportTable({ ...table, file, format: 'json' }, new Date('2026-01-01T00:00:00Z'));
    const json = JSON.parse(readFileSync(file, 'utf8')) as { exportedAt: string; rows: unknown[] };
    expect(json.exportedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(json.rows[1]).toEqual({ System: 'beta', 'Days until full': null, Note: 'a, b' });
  });

  it('never overwrites a file and refuses a relative path or a missing folder', async () => {
    const file = join(dir(), 'plan.csv');
    await exportTable({ ...table, file, format: 'csv' });
    await expect(exportTable({ ...table, rows: [], file, format: 'csv' })).rejects.toMatchObject({ code: 'conflict' });
    expect(readFileSync(file, 'utf8')).toContain('beta');
    await expect(exportTable({ ...table, file: 'plan.csv', format: 'csv' })).rejects.toMatchObject({ code: 'validation' });
    await expect(exportTable({ ...table, file: join(dir(), 'no', 'plan.csv'), format: 'csv' })).rejects.toMatchObject({ code: 'not-found' });
  });
});
