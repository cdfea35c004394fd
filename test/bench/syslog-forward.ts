import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeForwardSetting } from '../../main/audit/forward-settings.js';
import { parseSyslogLine } from '../../main/audit/syslog-message.js';
import { verifySyslogFile } from '../../main/audit/syslog-verify.js';
import { openStores } from '../../main/store/stores.js';
import { appendMany } from '../support/audit-trail.js';
import { rsyslogCollector, type Collector } from '../support/rsyslog.js';
import { BIN } from '../support/run-cli.js';
import type { BenchIo } from './scale.js';
import { ms, verdict } from './support.js';

const RECORDS = 10_000;

/** What a collector's file held, read as it grows (only the new bytes each time). */
class FileTail {
  private offset = 0;
  private rest = '';
  readonly seen = new Set<number>();
  lines = 0;
  max = 0;
  /** A record that arrived before an earlier one ever had: lost order (or a gap at that moment). */
  outOfOrder = 0;

  constructor(private readonly file: string) {}

  read(): void {
    if (!fs.existsSync(this.file)) return;
    const fd = fs.openSync(this.file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      if (size <= this.offset) return;
      const buf = Buffer.alloc(size - this.offset);
      fs.readSync(fd, buf, 0, buf.length, this.offset);
      this.offset = size;
      const parts = (this.rest + buf.toString('utf8')).split('\n');
      this.rest = parts.pop() ?? '';
      for (const line of parts) {
        const seq = parseSyslogLine(line)?.seq;
        if (seq === undefined) continue;
        this.lines++;
        if (seq > this.max + 1) this.outOfOrder++;
        this.max = Math.max(this.max, seq);
        this.seen.add(seq);
      }
    } finally {
      fs.closeSync(fd);
    }
  }
}

function sender(dataDir: string): ChildProcess {
  return spawn(process.execPath, [BIN, 'log', 'forward', '--flush', '--timeout', '120', '--data-dir', dataDir], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory' } });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

async function waitFor(tail: FileTail, check: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    tail.read();
    if (check()) return;
    if (performance.now() > end) throw new Error(`syslog bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface Run {
  /** From the sender's start until every record is in the collector's file. */
  inFileMs: number;
  /** Until the last sender exited with every record confirmed. */
  confirmedMs: number;
  tail: FileTail;
  verified: boolean;
}

/**
 * One run: 10,000 records in a new data directory, `fleetdeck log forward --flush` (the built CLI)
 * sending them to a real rsyslogd on loopback. `interrupt`: the collector is restarted once a
 * quarter of the records are in its file, and the sender SIGKILLed at 60 % and started again.
 */
async function run(io: BenchIo, interrupt: boolean): Promise<Run> {
  const dir = fs.mkdtempSync(join(tmpdir(), 'fleetdeck-bench-syslog-'));
  let collector: Collector | undefined;
  const children: ChildProcess[] = [];
  try {
    const dataDir = join(dir, 'data');
    const stores = openStores(dataDir);
    appendMany(stores, RECORDS);
    stores.close();
    fs.mkdirSync(join(dir, 'collector'));
    collector = await rsyslogCollector(join(dir, 'collector'));
    await collector.start();
    writeForwardSetting(dataDir, { target: `tcp://127.0.0.1:${collector.port}` });
    const tail = new FileTail(collector.file);
    const t0 = performance.now();
    let current = sender(dataDir);
    children.push(current);
    if (interrupt) {
      await waitFor(tail, () => tail.seen.size >= RECORDS / 4, 'a quarter of the records');
      await collector.stop();
      io.log(`syslog: collector stopped with ${tail.seen.size} records in its file; restarting`);
      await collector.start();
      await waitFor(tail, () => tail.seen.size >= (RECORDS * 6) / 10, '60 % of the records');
      current.kill('SIGKILL');
      await exited(current);
      io.log(`syslog: sender killed with ${tail.seen.size} records in the file; starting another`);
      current = sender(dataDir);
      children.push(current);
    }
    await waitFor(tail, () => tail.seen.size >= RECORDS, 'every record');
    const inFileMs = performance.now() - t0;
    const code = await exited(current);
    const confirmedMs = performance.now() - t0;
    if (code !== 0) throw new Error(`syslog bench: the sender exited with ${String(code)}`);
    tail.read();
    const verified = (await verifySyslogFile(collector.file)).ok;
    return { inFileMs, confirmedMs, tail, verified };
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await collector?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * 10,000 action-log records forwarded to a local rsyslog: the baseline uninterrupted, the figure
 * with a collector restart in the middle and a SIGKILL of the sender; records lost, out of order
 * and sent twice counted from the collector's own file, which `log verify --syslog` checks too.
 * The time runs from the sender's start (process start-up included) until every record is in
 * the collector's file; the confirmation (the connection healthy two seconds after the last
 * write) is printed beside it.
 */
export async function benchSyslogForward(io: BenchIo): Promise<void> {
  const base = await run(io, false);
  const hit = await run(io, true);
  const lost = RECORDS - hit.tail.seen.size;
  const describe = (r: Run): string => `${ms(r.inFileMs)} in file, ${ms(r.confirmedMs)} confirmed`;
  io.report({ name: 'syslog: 10,000 records to rsyslog, uninterrupted', value: ms(base.inFileMs), baseline: describe(base), goal: '< 5 s', verdict: verdict(base.inFileMs < 5000 && base.verified) });
  io.report({
    name: 'syslog: 10,000 records, collector restart + sender SIGKILL',
    value: ms(hit.inFileMs),
    baseline: `${describe(hit)}; ${lost} lost, ${hit.tail.outOfOrder} out of order, ${hit.tail.lines - hit.tail.seen.size} sent twice; log verify --syslog ${hit.verified ? 'ok' : 'FAILED'}`,
    goal: '< 5 s, none lost or reordered',
    verdict: verdict(hit.inFileMs < 5000 && lost === 0 && hit.tail.outOfOrder === 0 && hit.verified),
  });
}
