import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { redact } from '../../../app/redact.js';
import { SyslogForwarder } from '../../../main/audit/syslog-forwarder.js';
import { dispatch } from '../../../main/ipc/handlers.js';
import { openRuntime } from '../../../main/runtime.js';
import { openStores, type DataStores } from '../../../main/store/stores.js';
import { SyslogOutbox } from '../../../main/store/syslog-outbox.js';
import { until } from '../../support/until.js';
import { useTempDirs } from '../../unit/main/store/temp-dir.js';

const tempDir = useTempDirs();
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A TCP server that takes octet-counted frames and keeps each message; `drop()` resets every connection. */
async function collector(): Promise<{ port: number; messages: string[]; connections: () => number; drop: () => void }> {
  const messages: string[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((s) => {
    connections++;
    sockets.add(s);
    let buf = Buffer.alloc(0);
    s.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const sp = buf.indexOf(0x20);
        if (sp < 0) break;
        const len = Number(buf.subarray(0, sp).toString('ascii'));
        if (buf.length < sp + 1 + len) break;
        messages.push(buf.subarray(sp + 1, sp + 1 + len).toString('utf8'));
        buf = buf.subarray(sp + 1 + len);
      }
    });
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
  cleanup.push(() => {
    for (const s of sockets) s.destroy();
  });
  return { port: (server.address() as net.AddressInfo).port, messages, connections: () => connections, drop: () => sockets.forEach((s) => s.resetAndDestroy()) };
}

function open(dir: string): DataStores {
  const s = openStores(dir);
  cleanup.push(() => s.close());
  return s;
}

function forwarder(s: DataStores, port: number): SyslogForwarder {
  const f = new SyslogForwarder({
    outbox: new SyslogOutbox(s.logDb as NonNullable<DataStores['logDb']>),
    setting: () => ({ setting: { target: `tcp://127.0.0.1:${port}` }, managed: false }),
    onAppend: (l) => s.actionLog.onAppend(l),
    confirmAfterMs: 200,
    pollMs: 50,
    backoff: { initialMs: 20, maxMs: 100 },
  });
  cleanup.push(() => f.stop());
  return f;
}

const record = (i: number) => ({ user: 'admin', operation: 'alert rule set', params: redact({ i }), message: redact(`change ${i}`) });
const seqOf = (m: string): number => Number(/ seq="(\d+)"/.exec(m)?.[1]);

describe('SyslogForwarder', () => {
  it('lets one process of a data directory send; the other stands by and takes over when it stops', async () => {
    const c = await collector();
    const dir = tempDir();
    const a = open(dir);
    const b = open(dir);
    for (let i = 0; i < 5; i++) a.actionLog.recordLocal(record(i));
    const fa = forwarder(a, c.port);
    fa.start();
    await until(() => fa.status().state === 'idle', 'the first sender idle');
    const fb = forwarder(b, c.port);
    fb.start();
    await until(() => fb.status().state === 'standby', 'the second standing by');
    b.actionLog.recordLocal(record(5));
    await until(() => fa.status().ackedSeq === 6, 'the record of the other process sent by the lease holder');
    expect(c.connections()).toBe(1);
    await fa.stop();
    b.actionLog.recordLocal(record(6));
    await until(() => fb.status().ackedSeq === 7, 'the second sender taking over');
    expect(c.messages.map(seqOf)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('sends again everything not yet confirmed after the connection is reset', async () => {
    const c = await collector();
    const s = open(tempDir());
    for (let i = 0; i < 3; i++) s.actionLog.recordLocal(record(i));
    const f = new SyslogForwarder({
      outbox: new SyslogOutbox(s.logDb as NonNullable<DataStores['logDb']>),
      setting: () => ({ setting: { target: `tcp://127.0.0.1:${c.port}` }, managed: false }),
      // Long enough that nothing is confirmed before the reset.
      confirmAfterMs: 60_000,
      pollMs: 50,
      backoff: { initialMs: 20, maxMs: 100 },
    });
    cleanup.push(() => f.stop());
    f.start();
    await until(() => c.messages.length === 3, 'the first sending');
    c.drop();
    await until(() => c.messages.length === 6, 'the resend');
    expect(c.messages.map(seqOf)).toEqual([1, 2, 3, 1, 2, 3]);
    expect(f.status()).toMatchObject({ ackedSeq: 0, queued: 3 });
    expect(f.status().lastError).toMatch(/127\.0\.0\.1/);
  });

  it('queues while the collector is unreachable and records the error with its time', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    const s = open(tempDir());
    s.actionLog.recordLocal(record(0));
    const f = forwarder(s, port);
    f.start();
    await until(() => f.status().lastError !== undefined, 'the error');
    expect(f.status()).toMatchObject({ state: 'connecting', queued: 1, ackedSeq: 0 });
    expect(f.status().lastError).toContain('ECONNREFUSED');
    expect(Date.parse(f.status().lastErrorAt ?? '')).toBeGreaterThan(0);
  });

  it('runs in the runtime of the app: a target set from a window is sent to at once', async () => {
    const c = await collector();
    const dir = tempDir();
    const rt = await openRuntime({ dataDir: dir, memorySecrets: true, searchIndex: false });
    cleanup.push(() => rt.close());
    rt.actionLog.recordLocal(record(0));
    const set = await dispatch(rt.handlers, 'forward:set', { setting: { target: `tcp://127.0.0.1:${c.port}` } });
    expect(set.ok).toBe(true);
    // The record above and the change of the setting itself.
    await until(() => c.messages.length === 2, 'both records at the collector');
    expect(c.messages.map(seqOf)).toEqual([1, 2]);
    expect(c.messages[1]).toContain('syslog forwarding on');
  });
});
