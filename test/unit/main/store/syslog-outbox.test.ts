import { describe, expect, it } from 'vitest';
import { redact } from '../../../../app/redact.js';
import { openLogDatabase, ActionLog } from '../../../../main/store/index.js';
import { SyslogOutbox } from '../../../../main/store/syslog-outbox.js';
import { useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();

function setup(): { log: ActionLog; outbox: SyslogOutbox; close: () => void; dir: string } {
  const dir = tempDir();
  const db = openLogDatabase(dir);
  return { log: new ActionLog({ db, file: `${dir}/actions.db` }), outbox: new SyslogOutbox(db), close: () => db.close(), dir };
}

const local = { user: 'admin', operation: 'alert rule set', params: redact({ a: 1 }), message: redact('m') };

describe('SyslogOutbox', () => {
  it('queues every record the log appends, intent and outcome, and keeps them until confirmed', () => {
    const { log, outbox, close } = setup();
    try {
      log.append({ user: 'admin', siteId: 'lab', system: 's', operation: 'POST /volumes/create', params: redact({ body: { Name: 'v' } }), result: 'ok', message: redact('done') });
      log.recordLocal(local);
      expect(outbox.pending()).toBe(3);
      expect(outbox.batch(0, 10).map((r) => [r.seq, r.kind])).toEqual([[1, 'intent'], [2, 'outcome'], [3, 'local']]);
      expect(outbox.batch(1, 1).map((r) => r.seq)).toEqual([2]);
      outbox.confirm(2, '2026-01-01T00:00:00.000Z');
      expect(outbox.pending()).toBe(1);
      expect(outbox.state()).toMatchObject({ ackedSeq: 2, ackedAt: '2026-01-01T00:00:00.000Z' });
      // A confirmation older than the stored one never moves it back.
      outbox.confirm(1, '2026-01-02T00:00:00.000Z');
      expect(outbox.state().ackedSeq).toBe(2);
      // The log itself is untouched by trimming the outbox.
      expect(log.verify().ok).toBe(true);
    } finally {
      close();
    }
  });

  it('survives a reopen: the queue and the log id are in the file', () => {
    const { log, outbox, close, dir } = setup();
    log.recordLocal(local);
    const id = outbox.logId();
    close();
    const db = openLogDatabase(dir);
    try {
      const again = new SyslogOutbox(db);
      expect(again.logId()).toBe(id);
      expect(again.pending()).toBe(1);
    } finally {
      db.close();
    }
  });

  it('lets one process forward at a time: the lease holder until it releases, expires or dies', () => {
    const { outbox, close, dir } = setup();
    const db2 = openLogDatabase(dir);
    try {
      const other = new SyslogOutbox(db2);
      const now = new Date('2026-01-01T00:00:00Z');
      const later = new Date(now.getTime() + 10_000);
      expect(outbox.lease(now, later)).toBe(outbox.owner);
      expect(other.lease(now, later, () => true)).toBe(outbox.owner);
      // A holder known dead (its pid gone on this host) is replaced at once.
      expect(other.lease(now, later, () => false)).toBe(other.owner);
      expect(outbox.lease(now, later, () => true)).toBe(other.owner);
      // Expired: taken over.
      expect(outbox.lease(new Date(later.getTime() + 1), new Date(later.getTime() + 10_000), () => true)).toBe(outbox.owner);
      outbox.release();
      expect(other.lease(now, later, () => true)).toBe(other.owner);
    } finally {
      db2.close();
      close();
    }
  });
});
