import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { fuseStates, PACKAGED_FUSES } from '../support/fuses.js';

/**
 * The packaged app (`electron-builder --dir`, made by scripts/test-electron.mjs), started as an
 * installed one is: its own binary, no project folder, the app from app.asar (ESM loading from an
 * asar has broken in several Electron releases), the CLI through the shipped launcher. Fuses are
 * read from the binary and tried; the sandbox is checked at run time. Playwright's Electron
 * launcher needs `--inspect`, which the fuses turn off, so the window is driven over Chromium's
 * remote debugging port instead.
 */

const DIR = process.env.FLEETDECK_PACKAGED_DIR ?? '';
const work = mkdtempSync(join(tmpdir(), 'fd-packaged-'));
test.afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The packaged app's files, per OS. */
function layout(): { binary: string; resources: string; cli: string[] } {
  if (process.platform === 'darwin') {
    const app = join(DIR, 'Fleetdeck.app', 'Contents');
    return { binary: join(app, 'MacOS', 'Fleetdeck'), resources: join(app, 'Resources'), cli: [join(app, 'Resources', 'bin', 'fleetdeck')] };
  }
  if (process.platform === 'win32') {
    return { binary: join(DIR, 'Fleetdeck.exe'), resources: join(DIR, 'resources'), cli: ['cmd.exe', '/d', '/s', '/c'] };
  }
  return { binary: join(DIR, 'fleetdeck'), resources: join(DIR, 'resources'), cli: [join(DIR, 'resources', 'bin', 'fleetdeck')] };
}

/** Runs the shipped `fleetdeck` launcher with arguments, as a terminal would. */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const { cli, resources } = layout();
  const options = { encoding: 'utf8' as const, env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory', ...env }, timeout: 300_000 };
  if (process.platform === 'win32') {
    // What cmd does with a typed line: each argument quoted once, the launcher parses nothing again.
    const line = `"${join(resources, 'bin', 'fleetdeck.cmd')}" ${args.map((a) => `"${a}"`).join(' ')}`;
    return spawnSync(cli[0]!, [...cli.slice(1), `"${line}"`], { ...options, windowsVerbatimArguments: true });
  }
  return spawnSync(cli[0]!, args, options);
}

test.beforeAll(() => {
  if (process.env.FLEETDECK_PACKAGED_ERROR) throw new Error(`the app could not be packaged: ${process.env.FLEETDECK_PACKAGED_ERROR}`);
  expect(DIR, 'FLEETDECK_PACKAGED_DIR (set by scripts/test-electron.mjs)').not.toBe('');
});

test.describe('fuses', () => {
  test('are flipped in the packaged binary: RunAsNode on, NODE_OPTIONS and --inspect off, asar integrity and asar-only on', async () => {
    expect(await fuseStates(layout().binary)).toEqual(PACKAGED_FUSES);
  });

  test('the runtime as Node ignores NODE_OPTIONS and --inspect', () => {
    const marker = join(work, 'node-options-ran');
    const hook = join(work, 'hook.cjs');
    writeFileSync(hook, `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`);
    const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
    const r = spawnSync(layout().binary, ['-e', 'console.log("ran")'], { encoding: 'utf8', env: { ...env, NODE_OPTIONS: `--require ${hook}` }, timeout: 60_000 });
    expect(r.stdout.trim(), r.stderr).toBe('ran');
    expect(existsSync(marker)).toBe(false);
    const inspect = spawnSync(layout().binary, ['--inspect=0', '-e', 'console.log("ran")'], { encoding: 'utf8', env, timeout: 60_000 });
    expect(inspect.stderr).not.toMatch(/Debugger listening/);
  });
});

test.describe('the CLI through the shipped launcher', () => {
  test('runs from the package (no system Node, no project folder) and exports an audit pack to PDF', () => {
    const ops = runCli(['operations', '--json']);
    expect(ops.status, ops.stderr).toBe(0);
    expect((JSON.parse(ops.stdout) as unknown[]).length).toBeGreaterThan(100);
    const out = join(work, 'cli-audit');
    const r = runCli(['report', 'audit', '--offline', '--format', 'pdf', '--out', out, '--data-dir', join(work, 'cli-data')]);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'report.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
  });

  test('passes an argument with & | ^ % ( ) " and spaces intact', () => {
    const tricky = process.platform === 'win32' ? 'a&b|c^d 100% (x)' : 'a&b|c^d 100% (x) "q" $HOME';
    const r = runCli([tricky]);
    expect(r.stderr).toContain(`unknown command "${tricky}"`);
  });
});

test.describe('the packaged window', () => {
  let child: ChildProcess;
  let browser: Browser;
  let page: Page;
  let stderr = '';

  test.beforeAll(async () => {
    // No project folder on the command line: the app is the package's app.asar.
    child = spawn(layout().binary, ['--data-dir', join(work, 'data'), '--remote-debugging-port=0'], { cwd: work, env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory' } });
    const endpoint = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`the packaged app exited (${code}): ${stderr}`)));
    });
    browser = await chromium.connectOverCDP(endpoint);
    await expect.poll(() => browser.contexts().flatMap((c) => c.pages()).some((p) => p.url().startsWith('app://fleetdeck/'))).toBe(true);
    page = browser.contexts().flatMap((c) => c.pages()).find((p) => p.url().startsWith('app://fleetdeck/'))!;
  });

  test.afterAll(async () => {
    await browser?.close().catch(() => undefined);
    child?.kill();
  });

  test('opens the demo fleet from app.asar', async () => {
    await expect(page.getByTestId('simulated-banner')).toBeVisible();
    await expect(page.getByTestId('overview-table')).toHaveAttribute('data-row-count', '9');
  });

  test('runs its renderer sandboxed (Linux: under seccomp-bpf) with no Node in the page', async () => {
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
    if (process.platform !== 'linux') return;
    const session = await browser.newBrowserCDPSession();
    const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> };
    const renderers = processInfo.filter((p) => p.type === 'renderer');
    expect(renderers.length).toBeGreaterThan(0);
    for (const r of renderers) expect(readFileSync(`/proc/${r.id}/status`, 'utf8')).toMatch(/^Seccomp:\s+2$/m);
  });

  test('refuses to start unsandboxed, saying why', async () => {
    const refused = spawn(layout().binary, ['--no-sandbox', '--data-dir', join(work, 'refused')], { cwd: work });
    let said = '';
    refused.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    try {
      // The reason is printed before the error dialog, which waits for a click.
      await expect.poll(() => said).toMatch(/does not run without Chromium's sandbox/);
    } finally {
      refused.kill();
    }
  });
});
