import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { shellIpc as ipc } from '../support/shell-ipc.js';

const START = fileURLToPath(new URL('../../../bin/start.js', import.meta.url));

/** Starts `npm start`'s launcher and resolves with its output once it prints the browser URL. */
function launch(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; output: string; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [START, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    // Only a bound for a launcher that hangs: it may first build what changed, on a loaded machine.
    const timer = setTimeout(() => reject(new Error(`no URL within 180 s:\n${output}`)), 180_000);
    const onData = (d: Buffer): void => {
      output += d.toString();
      const url = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, output, url });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
  });
}

/**
 * Resolves once `holds` is true: asked at once, then again on each event the shell pushes on its
 * event stream (the renderer's own channel), never on a timer. The test's timeout bounds it.
 */
async function untilPushed(url: string, holds: () => Promise<boolean>): Promise<void> {
  const u = new URL(url);
  const stop = new AbortController();
  const res = await fetch(new URL('/events', u), { headers: { 'x-fleetdeck-token': u.searchParams.get('token') ?? '' }, signal: stop.signal });
  expect(res.status).toBe(200);
  const events = res.body!.getReader();
  try {
    // Subscribed first, then asked: an event after this answer cannot be missed.
    while (!(await holds())) {
      if ((await events.read()).done) throw new Error('the event stream ended');
    }
  } finally {
    stop.abort();
  }
}

/** A data directory for the suite and the launchers it starts: all stopped, and the directory removed, after it. */
function useLaunches(prefix: string): { dir: string; children: ChildProcess[] } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, children };
}

describe('npm start without the Electron runtime', () => {
  const { dir, children } = useLaunches('fd-start-');

  it('says so in one line and serves the app on the simulated demo fleet', async () => {
    const { child, output, url } = await launch(['--data-dir', dir], { FLEETDECK_KEYCHAIN: 'memory' });
    children.push(child);
    expect(output.match(/Electron runtime is not available here/g)).toHaveLength(1);
    expect(output).toMatch(/SIMULATED demo fleet \(3 sites\)/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(await page.text()).toMatch(/<div id="app"|<script/);
    expect(await ipc(url, 'app:info', {})).toMatchObject({ simulated: true });
    const sites = (await ipc(url, 'sites:list', {})) as Array<{ simulated: boolean; polling: { intervalSeconds: number } }>;
    expect(sites).toHaveLength(3);
    for (const s of sites) expect(s.simulated).toBe(true);
    // The demo's systems change by themselves: its sites poll, they are not "on demand".
    for (const s of sites) expect(s.polling.intervalSeconds).toBe(60);
    // The first refresh runs in the background: wait until the nine systems have come in.
    let systems = 0;
    await untilPushed(url, async () => {
      const status = (await ipc(url, 'fleet:status', {})) as Array<{ systems: Array<{ state: string }> }>;
      systems = status.flatMap((s) => s.systems).filter((s) => s.state === 'ok').length;
      return systems === 9;
    });
    expect(systems).toBe(9);
    // Starts a process that builds nothing but starts the simulator and refreshes nine systems.
  }, 240_000);

  it('opens scoped to one site with --site', async () => {
    const { child, output, url } = await launch(['--data-dir', dir, '--site', 'dc-boston', '--port', '0'], { FLEETDECK_KEYCHAIN: 'memory' });
    children.push(child);
    expect(output).toMatch(/scoped to site dc-boston/);
    const sites = (await ipc(url, 'sites:list', {})) as Array<{ name: string }>;
    expect(sites.map((s) => s.name)).toEqual(['dc-boston']);
  }, 240_000);
});

describe('instances side by side', () => {
  const { dir, children } = useLaunches('fd-side-');

  it('runs two site-scoped windows on one data directory at once', async () => {
    const [a, b] = await Promise.all([
      launch(['--web', '--data-dir', dir, '--site', 'dc-boston'], { FLEETDECK_KEYCHAIN: 'memory' }),
      launch(['--web', '--data-dir', dir, '--site', 'dc-prague'], { FLEETDECK_KEYCHAIN: 'memory' }),
    ]);
    children.push(a.child, b.child);
    expect(a.url).not.toBe(b.url);
    expect(((await ipc(a.url, 'sites:list', {})) as Array<{ name: string }>).map((s) => s.name)).toEqual(['dc-boston']);
    expect(((await ipc(b.url, 'sites:list', {})) as Array<{ name: string }>).map((s) => s.name)).toEqual(['dc-prague']);
    expect(await ipc(a.url, 'log:verify', {})).toMatchObject({ ok: true });
  }, 240_000);
});
