import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { redact } from '../../app/redact.js';
import { parseSyslogLine } from '../../main/audit/syslog-message.js';
import type { DataStores } from '../../main/store/stores.js';

/** A temporary directory, in memory (/dev/shm) where there is one: the log's fsyncs cost nothing there. */
export function fastTempDir(prefix: string): string {
  const base = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  return fs.mkdtempSync(path.join(base, prefix));
}

/**
 * Appends `n` records (changes made in Fleetdeck, params redacted as the app does) in one
 * transaction: the outbox trigger queues each as any append does, with one commit for all.
 */
export function appendMany(stores: DataStores, n: number, from = 0): void {
  const db = stores.logDb;
  if (!db) throw new Error('the action log is not usable');
  db.pragma('synchronous = FULL');
  db.transaction(() => {
    for (let i = from; i < from + n; i++) {
      stores.actionLog.recordLocal({ user: 'admin', siteId: 'lab', system: `sys-${i % 50}`, operation: 'alert rule set', params: redact({ rule: 'pool-full', warnPercent: 70 + (i % 20), note: `change ${i} — ünïcode` }), message: redact(`rule changed (${i})`) });
    }
  })();
}

/** The seq of every Fleetdeck message in a collector's lines, in file order. */
export function seqsOf(lines: readonly string[]): number[] {
  return lines.map((l) => parseSyslogLine(l)?.seq).filter((s): s is number => s !== undefined);
}

/**
 * Whether the file order is the log's order with repeats only: each record appears only after every
 * earlier one has (a resend after a reconnect starts again at or before the next new record).
 */
export function inOrderWithoutGaps(seqs: readonly number[]): boolean {
  let max = 0;
  for (const s of seqs) {
    if (s > max + 1) return false;
    max = Math.max(max, s);
  }
  return true;
}
