import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { redact } from '../../../app/redact.js';
import type { ForwardSetting } from '../../../app/domain/syslog-forward.js';
import { writeForwardSetting } from '../../../main/audit/forward-settings.js';
import { SyslogForwarder } from '../../../main/audit/syslog-forwarder.js';
import { openStores, type DataStores } from '../../../main/store/stores.js';
import { SyslogOutbox } from '../../../main/store/syslog-outbox.js';
import { appendMany, fastTempDir, inOrderWithoutGaps, seqsOf } from '../../support/audit-trail.js';
import { rsyslogCollector, rsyslogd, type Collector } from '../../support/rsyslog.js';
import { selfSignedCert, testCa } from '../../support/tls-cert.js';
import { until } from '../../support/until.js';
import { runCliHere } from '../../support/run-cli-here.js';

// Real rsyslogd receives the trail: without it these tests fail and say how to install it.
rsyslogd();

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function tempDir(): string {
  const dir = fastTempDir('fleetdeck-syslog-');
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function collector(options: Parameters<typeof rsyslogCollector>[1] = {}): Promise<Collector> {
  const c = await rsyslogCollector(tempDir(), options);
  cleanup.push(() => c.stop());
  await c.start();
  return c;
}

function stores(dataDir: string): DataStores {
  const s = openStores(dataDir);
  cleanup.push(() => s.close());
  return s;
}

function forwarder(s: DataStores, setting: ForwardSetting): SyslogForwarder {
  const f = new SyslogForwarder({
    outbox: new SyslogOutbox(s.logDb as NonNullable<DataStores['logDb']>),
    setting: () => ({ setting, managed: false }),
    onAppend: (l) => s.actionLog.onAppend(l),
    confirmAfterMs: 1000,
    backoff: { initialMs: 100, maxMs: 1000 },
  });
  cleanup.push(() => f.stop());
  f.start();
  return f;
}

const cli = (args: string[]) => runCliHere(args);

describe('audit trail to a real rsyslog', () => {
  it('forwards every record over TCP, redacted as stored, and the collector file verifies', async () => {
    const rs = await collector();
    const dataDir = tempDir();
    const s = stores(dataDir);
    appendMany(s, 200);
    // A write whose params held a password: the log stores it redacted, and so does the collector.
    // Its answer holds control characters: they reach the collector file unchanged (JSON escapes those below U+0020).
    s.actionLog.append({ user: 'admin', siteId: 'lab', system: 'sys-1', operation: 'POST /users/create', params: redact({ body: { Name: 'ops', Password: 'hunter2-secret' } }), result: 'ok', message: redact('created\u007f\u0085\ttab\nline') });
    const f = forwarder(s, { target: `tcp://127.0.0.1:${rs.port}` });
    await until(() => f.status().queued === 0, 'every record confirmed');
    expect(f.status()).toMatchObject({ state: 'idle', ackedSeq: 202, queued: 0, target: `tcp://127.0.0.1:${rs.port}` });
    // A record appended while running is sent at once.
    s.actionLog.recordLocal({ user: 'admin', operation: 'notifications on', params: redact({}), message: redact('on') });
    await until(() => f.status().ackedSeq === 203, 'the new record confirmed');
    const text = fs.readFileSync(rs.file, 'utf8');
    expect(text).not.toContain('hunter2-secret');
    expect(seqsOf(rs.lines())).toEqual(Array.from({ length: 203 }, (_, i) => i + 1));
    const v = await cli(['log', 'verify', '--syslog', rs.file, '--json']);
    expect(v.code).toBe(0);
    const result = JSON.parse(v.stdout) as { ok: boolean; chains: Array<{ records: number; missing: unknown[]; problems: unknown[] }> };
    expect(result.ok).toBe(true);
    expect(result.chains).toHaveLength(1);
    expect(result.chains[0]).toMatchObject({ records: 203, missing: [], problems: [] });
  });

  it('sends over TLS to a pinned self-signed certificate, and refuses another certificate', async () => {
    const pair = await selfSignedCert();
    const rs = await collector({ tls: pair });
    const pin = createHash('sha256').update(new X509Certificate(pair.cert).raw).digest('hex');
    const s = stores(tempDir());
    appendMany(s, 50);
    const wrong = forwarder(s, { target: `tls://127.0.0.1:${rs.port}`, pinSha256: 'ab'.repeat(32) });
    await until(() => wrong.status().lastError !== undefined, 'the pin mismatch reported');
    expect(wrong.status().lastError).toMatch(/collector's certificate changed: presented .* pinned AB:AB/);
    expect(wrong.status().ackedSeq).toBe(0);
    await wrong.stop();
    expect(rs.lines()).toEqual([]);
    const f = forwarder(s, { target: `tls://127.0.0.1:${rs.port}`, pinSha256: pin });
    await until(() => f.status().queued === 0, 'every record confirmed');
    expect(seqsOf(rs.lines())).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await cli(['log', 'verify', '--syslog', rs.file])).code).toBe(0);
  });

  it('sends over TLS to a certificate its CA vouches for', async () => {
    const ca = await testCa();
    const rs = await collector({ tls: await ca.issue() });
    const s = stores(tempDir());
    appendMany(s, 30);
    const f = forwarder(s, { target: `tls://127.0.0.1:${rs.port}`, ca: ca.caCert });
    await until(() => f.status().queued === 0, 'every record confirmed');
    expect(seqsOf(rs.lines())).toHaveLength(30);
  });

  it.each([
    ['stops', 'SIGTERM'],
    ['crashes', 'SIGKILL'],
  ] as const)('loses nothing and keeps the order when the collector %s mid-stream and comes back', async (_what, signal) => {
    const rs = await collector();
    const s = stores(tempDir());
    const f = forwarder(s, { target: `tcp://127.0.0.1:${rs.port}` });
    // Records keep coming while the collector goes away and comes back, as an app in use writes them.
    let appended = 0;
    let queuedAtStop = 0;
    let failureSeen = false;
    for (let k = 0; k < 150; k++) {
      appendMany(s, 20, appended);
      appended += 20;
      if (k === 40) {
        await rs.stop(signal);
        queuedAtStop = f.status().queued;
      }
      if (k === 100) {
        failureSeen = f.status().lastError !== undefined;
        await rs.start();
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(queuedAtStop).toBeGreaterThan(0);
    expect(failureSeen).toBe(true);
    await until(() => f.status().queued === 0, 'every record confirmed', 60_000);
    const seqs = seqsOf(rs.lines());
    expect(new Set(seqs).size).toBe(appended);
    expect(Math.max(...seqs)).toBe(appended);
    expect(inOrderWithoutGaps(seqs)).toBe(true);
    const v = await cli(['log', 'verify', '--syslog', rs.file]);
    expect(v.stdout).toContain(`records 1–${appended}, ${appended} found`);
    expect(v.code).toBe(0);
  });

  it('loses nothing when the sending process is killed mid-stream and started again', async () => {
    const rs = await collector();
    const dataDir = tempDir();
    const s = stores(dataDir);
    appendMany(s, 4000);
    s.close();
    writeForwardSetting(dataDir, { target: `tcp://127.0.0.1:${rs.port}` });
    const flush = (): ChildProcess => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'test/support/fleetdeck-source.ts'), 'log', 'forward', '--flush', '--data-dir', dataDir], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory' } });
      cleanup.push(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });
      return child;
    };
    const first = flush();
    await until(() => rs.lines().length >= 200, 'the stream under way', 30_000);
    const exited = new Promise((r) => first.once('exit', r));
    first.kill('SIGKILL');
    await exited;
    expect(first.signalCode).toBe('SIGKILL');
    const status = await cli(['log', 'forward-status', '--json', '--data-dir', dataDir]);
    const queued = (JSON.parse(status.stdout) as { queued: number }).queued;
    expect(queued).toBeGreaterThan(0);
    const second = flush();
    let out = '';
    second.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => second.once('exit', r));
    expect(out).toContain('every record is confirmed');
    expect(code).toBe(0);
    const seqs = seqsOf(rs.lines());
    expect(new Set(seqs).size).toBe(4000);
    expect(inOrderWithoutGaps(seqs)).toBe(true);
    expect((await cli(['log', 'verify', '--syslog', rs.file])).code).toBe(0);
    const after = JSON.parse((await cli(['log', 'forward-status', '--json', '--data-dir', dataDir])).stdout) as { queued: number; ackedSeq: number };
    expect(after).toMatchObject({ queued: 0, ackedSeq: 4000 });
  });

  it('log verify --syslog names the records missing from a collector file and fails', async () => {
    const rs = await collector();
    const s = stores(tempDir());
    appendMany(s, 20);
    const f = forwarder(s, { target: `tcp://127.0.0.1:${rs.port}` });
    await until(() => f.status().queued === 0, 'every record confirmed');
    const lines = rs.lines();
    const cut = path.join(path.dirname(rs.file), 'cut.log');
    fs.writeFileSync(cut, `${lines.filter((l) => !/ seq="(5|6|7)" /.test(l)).join('\n')}\n`);
    const v = await cli(['log', 'verify', '--syslog', cut]);
    expect(v.code).not.toBe(0);
    expect(v.stdout).toContain('missing: 5–7');
    expect(v.stderr).toContain('syslog verification FAILED');
  });
});
