import fs from 'node:fs';
import readline from 'node:readline';
import { GENESIS_HASH } from '../store/action-log.js';
import { parseSyslogLine } from './syslog-message.js';

/** One workstation's chain as found in a collector's file. */
export interface SyslogChain {
  logId: string;
  /** HOSTNAME of its messages. */
  hosts: string[];
  /** Distinct records found (intact ones). */
  records: number;
  /** Copies beyond the first of a record (sent again after a reconnect): tolerated. */
  duplicates: number;
  /** Lowest and highest seq found (0 when none). */
  firstSeq: number;
  lastSeq: number;
  /** Time of the highest record found. */
  lastAt?: string | undefined;
  /** Seq ranges absent from the file, from 1 to the highest found (inclusive). */
  missing: Array<{ from: number; to: number }>;
  /** Records altered, conflicting or not linked to the one before. */
  problems: Array<{ seq: number; line: number; reason: string }>;
}

export interface SyslogVerification {
  ok: boolean;
  file: string;
  /** Lines read, and how many carried a Fleetdeck record. */
  lines: number;
  messages: number;
  chains: SyslogChain[];
}

interface Seen {
  hash: string;
  prevHash: string;
  at: string;
  line: number;
}

/**
 * Verifies the action-log records in a collector's file (one message per line, RFC 5424 as
 * received: the rsyslog template in the README writes `%rawmsg%`): per log id, every record's
 * content against its hash, every link to the record before, and which seq ranges are missing.
 * Duplicates (the same record sent twice) are tolerated; two different records with one seq are
 * not. Other programs' lines are ignored. Streams the file; holds two hashes per record.
 * @throws Error from opening or reading the file
 */
export async function verifySyslogFile(file: string): Promise<SyslogVerification> {
  const input = fs.createReadStream(file, { encoding: 'utf8' });
  const chains = new Map<string, { chain: SyslogChain; seen: Map<number, Seen>; hosts: Set<string> }>();
  let lines = 0;
  let messages = 0;
  const reader = readline.createInterface({ input, crlfDelay: Infinity });
  for await (const line of reader) {
    lines++;
    const parsed = parseSyslogLine(line);
    if (!parsed) continue;
    messages++;
    let entry = chains.get(parsed.logId);
    if (!entry) {
      entry = { chain: { logId: parsed.logId, hosts: [], records: 0, duplicates: 0, firstSeq: 0, lastSeq: 0, missing: [], problems: [] }, seen: new Map(), hosts: new Set() };
      chains.set(parsed.logId, entry);
    }
    const host = /^<\d{1,3}>1 \S+ (\S+)/.exec(line)?.[1];
    if (host) entry.hosts.add(host);
    if (parsed.problem || !parsed.record) {
      entry.chain.problems.push({ seq: parsed.seq, line: lines, reason: parsed.problem ?? 'no record' });
      continue;
    }
    const before = entry.seen.get(parsed.seq);
    if (before) {
      if (before.hash === parsed.hash) entry.chain.duplicates++;
      else entry.chain.problems.push({ seq: parsed.seq, line: lines, reason: `a different record with the same seq as line ${before.line}: one of them was forged or the log was replaced` });
      continue;
    }
    entry.seen.set(parsed.seq, { hash: parsed.hash, prevHash: parsed.prevHash, at: parsed.record.at, line: lines });
  }
  const result: SyslogChain[] = [];
  for (const { chain, seen, hosts } of chains.values()) {
    chain.hosts = [...hosts].sort();
    const seqs = [...seen.keys()].sort((a, b) => a - b);
    chain.records = seqs.length;
    chain.firstSeq = seqs[0] ?? 0;
    chain.lastSeq = seqs[seqs.length - 1] ?? 0;
    chain.lastAt = seen.get(chain.lastSeq)?.at;
    let expected = 1;
    for (const seq of seqs) {
      if (seq > expected) chain.missing.push({ from: expected, to: seq - 1 });
      const rec = seen.get(seq) as Seen;
      const previous = seq === 1 ? { hash: GENESIS_HASH } : seen.get(seq - 1);
      if (previous && previous.hash !== rec.prevHash) {
        chain.problems.push({ seq, line: rec.line, reason: seq === 1 ? 'the first record does not start a chain' : `not linked to record ${seq - 1} (prevHash differs): records were replaced or reordered` });
      }
      expected = seq + 1;
    }
    chain.problems.sort((a, b) => a.seq - b.seq || a.line - b.line);
    result.push(chain);
  }
  result.sort((a, b) => a.logId.localeCompare(b.logId));
  return { ok: result.length > 0 && result.every((c) => c.missing.length === 0 && c.problems.length === 0), file, lines, messages, chains: result };
}
