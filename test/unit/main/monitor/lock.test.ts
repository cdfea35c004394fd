import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireMonitorLock, askMonitor, lockAddress, monitorHolder, MonitorNotAnsweringError, MonitorRunningError } from '../../../../main/monitor/lock.js';

const who = { user: 'svc-fleetdeck', version: '9.9.9', now: () => new Date('2026-11-28T10:00:00.000Z') };

/** A process listening on the lock's address, then killed with SIGKILL: its socket file stays behind. */
async function leaveStaleSocket(address: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(address)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await gone;
}

describe('the monitor lock of a data directory', { timeout: 20_000 }, () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fd-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is held by one monitor; a second is refused naming the first, and takes it once released', async () => {
    const first = await acquireMonitorLock({ dataDir: dir, ...who });
    const refused = await acquireMonitorLock({ dataDir: dir, ...who }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MonitorRunningError);
    expect((refused as MonitorRunningError).holder).toEqual({ pid: process.pid, host: expect.any(String), user: 'svc-fleetdeck', since: '2026-11-28T10:00:00.000Z', version: '9.9.9' });
    expect((refused as Error).message).toContain(`process ${process.pid} of svc-fleetdeck`);
    expect(await monitorHolder(dir)).toMatchObject({ pid: process.pid });
    await first.release();
    expect(await monitorHolder(dir)).toBeUndefined();
    expect(existsSync(lockAddress(dir))).toBe(false);
    const second = await acquireMonitorLock({ dataDir: dir, ...who });
    await second.release();
  });

  it('carries one request to the holder once it serves them, and still tells probes who holds it at once', async () => {
    expect(await askMonitor(dir, { hello: 1 }, 5_000)).toBeUndefined();
    const lock = await acquireMonitorLock({ dataDir: dir, ...who });
    try {
      // Not serving yet (a monitor still starting): the request is refused, not left hanging.
      await expect(askMonitor(dir, { hello: 1 }, 5_000)).rejects.toBeInstanceOf(MonitorNotAnsweringError);
      const asked: unknown[] = [];
      lock.serve(async (request) => {
        asked.push(request);
        if ((request as { fail?: boolean }).fail) throw new Error('refused here');
        return { ok: true, echo: request };
      });
      const answered = await askMonitor(dir, { hello: 2 }, 5_000);
      expect(answered).toEqual({ holder: expect.objectContaining({ pid: process.pid, user: 'svc-fleetdeck' }), answer: { ok: true, echo: { hello: 2 } } });
      expect((await askMonitor(dir, { fail: true }, 5_000))?.answer).toEqual({ ok: false, message: 'refused here' });
      expect(await monitorHolder(dir)).toMatchObject({ pid: process.pid });
      expect(asked).toEqual([{ hello: 2 }, { fail: true }]);
    } finally {
      await lock.release();
    }
  });

  it('is taken over from a process killed with SIGKILL (its socket file refuses connections)', async () => {
    const address = lockAddress(dir);
    await leaveStaleSocket(address);
    expect(existsSync(address)).toBe(true);
    expect(await monitorHolder(dir)).toBeUndefined();
    const lock = await acquireMonitorLock({ dataDir: dir, ...who });
    expect(await monitorHolder(dir)).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('goes to exactly one of two monitors starting together over a stale lock', async () => {
    await leaveStaleSocket(lockAddress(dir));
    const results = await Promise.allSettled([acquireMonitorLock({ dataDir: dir, ...who }), acquireMonitorLock({ dataDir: dir, ...who }), acquireMonitorLock({ dataDir: dir, ...who })]);
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(MonitorRunningError);
    expect(existsSync(join(dir, 'monitor.lock.takeover'))).toBe(false);
    await (won[0] as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release();
  });

  it('names a data directory too deep for a Unix socket, and keys a Windows pipe on the directory', () => {
    expect(() => lockAddress(`/${'d'.repeat(120)}`, 'linux')).toThrow(/too long for the monitor's lock.*shorter --data-dir/);
    const pipe = lockAddress('C:\\Users\\a\\AppData\\Roaming\\Fleetdeck', 'win32');
    expect(pipe).toMatch(/^\\\\\.\\pipe\\fleetdeck-monitor-[0-9a-f]{32}$/);
    expect(lockAddress('c:\\users\\A\\appdata\\roaming\\fleetdeck', 'win32')).toBe(pipe);
    expect(lockAddress('C:\\ProgramData\\Fleetdeck', 'win32')).not.toBe(pipe);
  });
});
