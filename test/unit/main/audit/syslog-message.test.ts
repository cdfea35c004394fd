import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redact } from '../../../../app/redact.js';
import { octetFrame, parseSyslogLine, SD_ID, syslogHostname, syslogMessage } from '../../../../main/audit/syslog-message.js';
import { verifySyslogFile } from '../../../../main/audit/syslog-verify.js';
import { openStores } from '../../../../main/store/stores.js';
import type { HashedRecord } from '../../../../main/store/action-log.js';
import { SyslogOutbox } from '../../../../main/store/syslog-outbox.js';
import { useTempDirs } from '../store/temp-dir.js';

const tempDir = useTempDirs();

/** A log of `n` records (a write with a secret among them) and the syslog lines a collector would hold. */
function trail(n: number, dir = tempDir()): { lines: string[]; records: HashedRecord[]; logId: string } {
  const stores = openStores(dir);
  try {
    stores.actionLog.append({ user: 'admin', siteId: 'lab', system: 's1', operation: 'POST /users/create', params: redact({ body: { Name: 'ops', Password: 'p4ss-word' } }), result: 'refused', message: redact('name "taken" ] \\ here') });
    for (let i = 2; i < n; i++) stores.actionLog.recordLocal({ user: 'admin', operation: 'alert rule set', params: redact({ i }), message: redact(`change ${i}`) });
    const outbox = new SyslogOutbox(stores.logDb as NonNullable<typeof stores.logDb>);
    const records = outbox.batch(0, 1000);
    const logId = outbox.logId();
    return { records, logId, lines: records.map((r) => syslogMessage(r, logId, 'ws-1', 42)) };
  } finally {
    stores.close();
  }
}

function file(lines: string[]): string {
  const f = path.join(tempDir(), 'collector.log');
  fs.writeFileSync(f, `${lines.join('\n')}\n`);
  return f;
}

describe('syslog message', () => {
  it('is RFC 5424 with the record in structured data and MSG, redacted as stored', () => {
    const { lines, logId, records } = trail(3);
    expect(logId).toMatch(/^[0-9a-f]{32}$/);
    // The refused write's outcome is a warning (13 * 8 + 4); its intent a notice (13 * 8 + 5).
    expect(lines[0]).toMatch(new RegExp(`^<109>1 \\S+Z ws-1 fleetdeck 42 intent \\[${SD_ID} logId="${logId}" seq="1" hash="${records[0]?.hash}" prevHash="0{64}"\\] \\{`));
    expect(lines[1]).toMatch(/^<108>1 \S+ ws-1 fleetdeck 42 outcome /);
    expect(lines.join('\n')).not.toContain('p4ss-word');
    const parsed = parseSyslogLine(lines[1] as string);
    expect(parsed?.problem).toBeUndefined();
    expect(parsed).toMatchObject({ logId, seq: 2, record: { message: 'name "taken" ] \\ here', result: 'refused' } });
  });

  it('frames by octet counting in bytes, not characters', () => {
    expect(octetFrame('<1>1 é').toString('utf8')).toBe('7 <1>1 é');
    expect(syslogHostname('my host\u00e9')).toBe('myhost');
    expect(syslogHostname('')).toBe('-');
  });

  it('reads back a line as rsyslog stores it, and ignores other programs\' lines', () => {
    const { lines } = trail(2);
    expect(parseSyslogLine('<13>1 2026-01-01T00:00:00Z host sshd 1 - - accepted')).toBeUndefined();
    expect(parseSyslogLine(`${lines[0]}\r\n`)?.problem).toBeUndefined();
    expect(parseSyslogLine((lines[0] as string).replace('"user":"admin"', '"user":"mallory"'))?.problem).toMatch(/does not match its hash/);
    expect(parseSyslogLine((lines[0] as string).slice(0, -10))?.problem).toMatch(/not a complete record/);
  });
});

describe('verifySyslogFile', () => {
  it('accepts a whole chain with duplicates and other programs\' lines', async () => {
    const { lines } = trail(10);
    const v = await verifySyslogFile(file(['<13>1 - host cron 1 - - tick', ...lines.slice(0, 6), ...lines.slice(3)]));
    expect(v.ok).toBe(true);
    expect(v.chains[0]).toMatchObject({ records: 10, duplicates: 3, firstSeq: 1, lastSeq: 10, missing: [], problems: [], hosts: ['ws-1'] });
  });

  it('names missing ranges, altered records and forged replacements', async () => {
    const { lines } = trail(12);
    const other = trail(12);
    const altered = (lines[8] as string).replace('"user":"admin"', '"user":"mallory"');
    const v = await verifySyslogFile(file([...lines.slice(1, 4), ...lines.slice(6, 8), altered, ...lines.slice(9, 10), (other.lines[10] as string).replace(other.logId, trail(1).logId), ...other.lines]));
    expect(v.ok).toBe(false);
    const mine = v.chains.find((c) => c.hosts.length && c.records === 6);
    expect(mine?.missing).toEqual([{ from: 1, to: 1 }, { from: 5, to: 6 }, { from: 9, to: 9 }]);
    expect(mine?.problems.map((p) => p.seq)).toEqual([9]);
    expect(v.chains.find((c) => c.logId === other.logId)).toMatchObject({ records: 12, missing: [], problems: [] });
  });

  it('finds a record swapped for one of another log with the same seq', async () => {
    const a = trail(4);
    const b = trail(4);
    // b's record 3 relabelled as a's: its hash is intact, its link to a's record 2 is not.
    const forged = (b.lines[2] as string).split(b.logId).join(a.logId);
    const v = await verifySyslogFile(file([a.lines[0] as string, a.lines[1] as string, forged, a.lines[3] as string]));
    expect(v.ok).toBe(false);
    expect(v.chains[0]?.problems.map((p) => p.seq)).toEqual([3, 4]);
  });

  it('fails on a file without any Fleetdeck record', async () => {
    expect((await verifySyslogFile(file(['<13>1 - host cron 1 - - tick']))).ok).toBe(false);
  });
});
