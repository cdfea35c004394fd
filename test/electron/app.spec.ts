import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { APP_DIR, electronArgs } from '../../bin/electron-binary.js';
import { CONTENT_SECURITY_POLICY } from '../../main/shells/csp.js';
import { SiteStore } from '../../main/store/site-store.js';
import { openSystem } from '../e2e/support/ui.js';

/**
 * The real Electron window (`npm run test:electron`; skipped with one line where the runtime
 * cannot be had). What the browser-shell end-to-end tests and the mocked-`electron` unit tests
 * cannot show: the store's native module loads in Electron, the window works on the demo fleet,
 * an audit pack exports to PDF, the security settings hold at run time, the per-site lock
 * and scope, the quit path, and the CLI on the app's own runtime.
 */

const BINARY = process.env.FLEETDECK_ELECTRON_BINARY ?? '';
const work = mkdtempSync(join(tmpdir(), 'fd-electron-'));
test.afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Calls main through the preload's transport, as the renderer does; the envelope, decoded. */
async function call(page: Page, channel: string, request: unknown = {}): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  const text = await page.evaluate(([c, r]) => (window as unknown as { fleetdeck: { call(c: unknown, r: unknown): Promise<string> } }).fleetdeck.call(c, r), [channel, request] as const);
  return JSON.parse(text) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
}

function pdfText(file: string): string {
  return spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout;
}

test.describe('the demo fleet in the Electron window', () => {
  test.describe.configure({ mode: 'serial' });
  let app: ElectronApplication;
  let page: Page;
  const dataDir = join(work, 'fresh', 'data');

  test.beforeAll(async () => {
    // No FLEETDECK_KEYCHAIN: the first launch (no sites, demo) must not ask the keychain by itself.
    app = await electron.launch({ executablePath: BINARY, args: electronArgs(['--data-dir', dataDir]), cwd: APP_DIR });
    page = await app.firstWindow();
    await expect(page.getByTestId('simulated-banner')).toBeVisible();
  });

  test('opens on the demo fleet: the store (libsql, N-API) loaded in Electron, every system listed', async () => {
    const statuses = (await call(page, 'fleet:status')).value as Array<{ siteId: string; systems: unknown[] }>;
    expect(statuses).toHaveLength(3);
    await expect(page.getByTestId('overview-table')).toHaveAttribute('data-row-count', '9');
  });

  test("is named Fleetdeck, keeps its profile in the data dir's instance folder, made the data dir 0700", async () => {
    const where = await app.evaluate(({ app: a }) => ({ name: a.getName(), userData: a.getPath('userData') }));
    expect(where.name).toBe('Fleetdeck');
    expect(where.userData).toBe(join(dataDir, 'instances', 'demo'));
    if (process.platform !== 'win32') expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  test('did not ask the OS keychain for the demo fleet', async () => {
    const info = (await call(page, 'app:info')).value as { keychain: string; keychainWarning?: string };
    expect(info.keychain).toBe('memory');
    expect(info.keychainWarning).toBeUndefined();
  });

  test("opens a system's hardware and reads the degrading drive's SMART", async () => {
    const sites = (await call(page, 'sites:list')).value as Array<{ id: string }>;
    const statuses = (await call(page, 'fleet:status')).value as Array<{ siteId: string; systems: Array<{ system: string }> }>;
    // The demo puts its one degrading drive on the second system of the first site.
    const siteId = sites[0]!.id;
    const system = statuses.find((s) => s.siteId === siteId)!.systems[1]!.system;
    await openSystem(page, siteId, system, 'Hardware');
    await page.getByTestId('drives-table').getByRole('row').filter({ hasText: /Warning|Degraded/ }).first().click();
    await expect(page.getByTestId('smart-view')).toBeVisible();
    await expect(page.getByTestId('smart-view')).not.toHaveAttribute('data-risk', 'ok');
  });

  test('exports an audit pack to PDF, written by main without any print window', async () => {
    const generated = await call(page, 'reports:generate', { kind: 'audit' });
    expect(generated.error).toBeUndefined();
    // The admin's answer to main's folder dialog: the export makes its own new folder inside.
    await app.evaluate(({ dialog }, chosen) => {
      dialog.showOpenDialog = (async () => ({ canceled: false, filePaths: [chosen] })) as typeof dialog.showOpenDialog;
    }, work);
    const exported = await call(page, 'reports:export', { id: (generated.value as { id: number }).id, formats: ['pdf'] });
    expect(exported.error).toBeUndefined();
    const out = (exported.value as { kind: string; dir: string }).dir;
    expect(dirname(out)).toBe(work);
    const pdf = readFileSync(join(out, 'report.pdf'));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(join(out, 'report.pdf'))).toMatch(/Audit/);
    // No window was opened to print it.
    await expect.poll(() => app.windows().length).toBe(1);
  });

  test('runs sandboxed and isolated, with no Node in the page and a frozen two-function bridge', async () => {
    // The renderer's OS process: on Linux a sandboxed renderer runs under a seccomp-bpf filter.
    const pid = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().find((w) => w.webContents.getURL().startsWith('app://fleetdeck/'))?.webContents.getOSProcessId() ?? 0);
    expect(pid).toBeGreaterThan(0);
    if (process.platform === 'linux') expect(readFileSync(`/proc/${pid}/status`, 'utf8')).toMatch(/^Seccomp:\s+2$/m);
    // Context isolation: the page sees the bridge, never the preload's world or Node.
    const page_ = await page.evaluate(() => {
      const bridge = (window as unknown as { fleetdeck: object }).fleetdeck;
      return { process: typeof (globalThis as { process?: unknown }).process, require: typeof (globalThis as { require?: unknown }).require, frozen: Object.isFrozen(bridge), keys: Object.keys(bridge).sort() };
    });
    expect(page_).toEqual({ process: 'undefined', require: 'undefined', frozen: true, keys: ['call', 'on'] });
  });

  test('serves the page with the CSP, which refuses an inline script', async () => {
    const csp = await page.evaluate(async () => (await fetch('/index.html')).headers.get('content-security-policy'));
    expect(csp).toBe(CONTENT_SECURITY_POLICY);
    const violated = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true });
          const s = document.createElement('script');
          s.textContent = 'window.__inlineRan = true';
          document.head.append(s);
        }),
    );
    expect(violated).toMatch(/^script-src/);
    expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
  });

  test('refuses navigation away from the app and new windows', async () => {
    const url = page.url();
    // A refused window.open gives the page null at once.
    expect(await page.evaluate(() => window.open('https://example.invalid/') === null)).toBe(true);
    // A navigation is decided in main's will-navigate, by the hardening listener registered before
    // this one: wait until main has seen it, and whether it was refused.
    await app.evaluate(({ BrowserWindow }) => {
      const seen: Array<{ url: string; refused: boolean }> = [];
      (globalThis as { __navigations?: typeof seen }).__navigations = seen;
      BrowserWindow.getAllWindows()[0]!.webContents.on('will-navigate', (e, to) => void seen.push({ url: to, refused: e.defaultPrevented }));
    });
    await page.evaluate(() => {
      window.location.href = 'https://example.invalid/';
    });
    await expect.poll(() => app.evaluate(() => (globalThis as { __navigations?: unknown[] }).__navigations ?? [])).toContainEqual({ url: 'https://example.invalid/', refused: true });
    expect(page.url()).toBe(url);
    expect(app.windows()).toHaveLength(1);
    expect(await page.evaluate(() => document.querySelector('#app') !== null)).toBe(true);
  });

  test('quits only after the core closed: the demo data dir is removed', async () => {
    const pid = app.process().pid;
    await app.close();
    const left = readdirSync(tmpdir())
      .filter((n) => n.startsWith('fleetdeck-demo-'))
      .filter((n) => {
        try {
          return Number(readFileSync(join(tmpdir(), n, 'owner.pid'), 'utf8')) === pid;
        } catch {
          return false;
        }
      });
    expect(left).toEqual([]);
  });
});

test.describe('a window per site', () => {
  const dataDir = join(work, 'sites');

  test.beforeAll(async () => {
    const sites = new SiteStore({ dataDir });
    // Nothing listens on these ports: each site is unreachable, which is all this needs.
    await sites.add({ name: 'Paris', baseUrl: 'http://127.0.0.1:9', username: 'admin' });
    await sites.add({ name: 'Lyon', baseUrl: 'http://127.0.0.1:7', username: 'admin' });
  });

  test('shows only its site, refreshes it from the Refresh button without error, and a second launch for the same site id exits', async () => {
    const app = await electron.launch({ executablePath: BINARY, args: electronArgs(['--site', 'Paris', '--data-dir', dataDir]), env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory' } });
    try {
      const page = await app.firstWindow();
      await expect(page.getByTestId('tree-site-paris')).toBeVisible();
      await expect(page.getByTestId('tree-site-lyon')).toHaveCount(0);
      await page.getByTestId('refresh-fleet').click();
      await expect(page.getByTestId('refresh-fleet')).toBeEnabled();
      await expect(page.getByRole('alert').filter({ hasText: /scoped|refresh failed/ })).toHaveCount(0);
      // `--site paris` is the same site id: it finds the first instance's lock and exits.
      const second = spawn(BINARY, electronArgs(['--site', 'paris', '--data-dir', dataDir]), { env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory' }, stdio: 'ignore' });
      const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
      expect(code).toBe(0);
      expect(existsSync(join(dataDir, 'instances', 'site-paris'))).toBe(true);
    } finally {
      await app.close();
    }
  });
});

test.describe("the app's runtime as the CLI", () => {
  test('runs the fleetdeck CLI with ELECTRON_RUN_AS_NODE=1 and exports a PDF', () => {
    const dataDir = join(work, 'cli-data');
    const out = join(work, 'cli-audit');
    const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1', FLEETDECK_KEYCHAIN: 'memory' };
    const r = spawnSync(BINARY, [join(APP_DIR, 'bin', 'fleetdeck.js'), 'report', 'audit', '--offline', '--format', 'pdf,json', '--out', out, '--data-dir', dataDir], { encoding: 'utf8', env, timeout: 300_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'report.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
