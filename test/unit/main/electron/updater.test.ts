import { describe, expect, it, vi } from 'vitest';
import { electronUpdaterAdapter, POLICY_FILES, readUpdatePolicy, startUpdates, type PolicySources, type UpdaterLike } from '../../../../main/electron/updater.js';

function sources(over: Partial<PolicySources> & { platform: NodeJS.Platform }): PolicySources {
  const missing = Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
  return { readFile: async () => Promise.reject(missing), stat: async () => Promise.reject(missing), queryRegistry: async () => undefined, ...over };
}
const rootFile = (text: string, st = { uid: 0, mode: 0o100644 }) => ({ readFile: async () => text, stat: async () => st });

describe('the update feed from the machine policy', () => {
  it('is off unless configured', async () => {
    expect(await readUpdatePolicy(sources({ platform: 'linux' }))).toEqual({});
    expect(await readUpdatePolicy(sources({ platform: 'win32' }))).toEqual({});
  });

  it('reads a root-owned JSON file on Linux and macOS, at a path only administrators can write', async () => {
    const read = vi.fn(async () => '{"updateUrl":"https://updates.example.corp/fleetdeck"}');
    expect(await readUpdatePolicy(sources({ platform: 'linux', readFile: read, stat: async () => ({ uid: 0, mode: 0o100644 }) }))).toEqual({ url: 'https://updates.example.corp/fleetdeck/' });
    expect(read).toHaveBeenCalledWith('/etc/fleetdeck/policy.json');
    expect(POLICY_FILES.darwin).toBe('/Library/Application Support/Fleetdeck/policy.json');
  });

  it('ignores a policy file a user could have written, and a feed that is not https', async () => {
    const json = '{"updateUrl":"https://evil.example/"}';
    expect((await readUpdatePolicy(sources({ platform: 'linux', ...rootFile(json, { uid: 1000, mode: 0o100644 }) }))).url).toBeUndefined();
    expect((await readUpdatePolicy(sources({ platform: 'linux', ...rootFile(json, { uid: 0, mode: 0o100666 }) }))).problem).toMatch(/owned by root and writable by no one else/);
    expect(await readUpdatePolicy(sources({ platform: 'linux', ...rootFile('{"updateUrl":"http://updates.example.corp/"}') }))).toEqual({ problem: expect.stringMatching(/must be https/) });
    expect((await readUpdatePolicy(sources({ platform: 'linux', ...rootFile('not json') }))).problem).toMatch(/not JSON/);
  });

  it('reads the Group Policy registry value on Windows', async () => {
    const query = vi.fn(async () => '\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Fleetdeck\r\n    UpdateUrl    REG_SZ    https://updates.example.corp/fleetdeck/\r\n\r\n');
    expect(await readUpdatePolicy(sources({ platform: 'win32', queryRegistry: query }))).toEqual({ url: 'https://updates.example.corp/fleetdeck/' });
    expect(query).toHaveBeenCalledWith('HKLM\\SOFTWARE\\Policies\\Fleetdeck', 'UpdateUrl');
  });
});

/** A fake updater and clock: the test fires downloads and timers itself. */
function harness(o: { busy?: () => boolean; confirm?: (v: string) => Promise<boolean> } = {}) {
  const listeners: { downloaded?: (v: string) => void; error?: (e: Error) => void } = {};
  const updater: UpdaterLike & { configured?: string; checks: number; installs: number } = {
    checks: 0,
    installs: 0,
    configure(url) {
      this.configured = url;
    },
    async check() {
      this.checks += 1;
    },
    install() {
      this.installs += 1;
    },
    onDownloaded: (l) => (listeners.downloaded = l),
    onError: (l) => (listeners.error = l),
  };
  const timers: Array<{ run: () => void; ms: number; cleared: boolean }> = [];
  const confirm = vi.fn(o.confirm ?? (async () => true));
  const log = vi.fn();
  const stop = startUpdates({
    updater,
    url: 'https://updates.example.corp/',
    busy: o.busy ?? (() => false),
    confirm,
    log,
    setTimeout: (run, ms) => {
      const t = { run, ms, cleared: false };
      timers.push(t);
      return t;
    },
    clearTimeout: (t) => void ((t as { cleared: boolean }).cleared = true),
  });
  return { updater, listeners, timers, confirm, log, stop };
}

describe('installing an update', () => {
  it('points electron-updater at the feed and checks now, then every 6 hours', () => {
    const h = harness();
    expect(h.updater.configured).toBe('https://updates.example.corp/');
    expect(h.updater.checks).toBe(1);
    expect(h.timers[0]!.ms).toBe(6 * 60 * 60 * 1000);
    h.timers[0]!.run();
    expect(h.updater.checks).toBe(2);
    h.stop();
    expect(h.timers.at(-1)!.cleared).toBe(true);
  });

  it('installs a downloaded update once the admin agrees and no write runs', async () => {
    const h = harness();
    h.listeners.downloaded!('0.2.0');
    expect(h.confirm).toHaveBeenCalledWith('0.2.0');
    await vi.waitFor(() => expect(h.updater.installs).toBe(1));
  });

  it('never asks while a write or bulk change runs, and never installs if one started while the question was open', async () => {
    let busy = true;
    let answer: (yes: boolean) => void = () => undefined;
    const h = harness({ busy: () => busy, confirm: () => new Promise<boolean>((r) => (answer = r)) });
    h.listeners.downloaded!('0.2.0');
    expect(h.confirm).not.toHaveBeenCalled();
    const wait = h.timers.at(-1)!;
    expect(wait.ms).toBe(30_000);
    busy = false;
    wait.run();
    expect(h.confirm).toHaveBeenCalledTimes(1);
    busy = true;
    answer(true);
    await vi.waitFor(() => expect(h.log).toHaveBeenCalledWith(expect.stringMatching(/a write started/)));
    expect(h.updater.installs).toBe(0);
    busy = false;
    h.timers.at(-1)!.run();
    expect(h.confirm).toHaveBeenCalledTimes(2);
    answer(true);
    await vi.waitFor(() => expect(h.updater.installs).toBe(1));
  });

  it('"Later" installs nothing this run', async () => {
    const h = harness({ confirm: async () => false });
    h.listeners.downloaded!('0.2.0');
    h.listeners.downloaded!('0.2.0');
    await Promise.resolve();
    expect(h.confirm).toHaveBeenCalledTimes(1);
    expect(h.updater.installs).toBe(0);
  });

  it("configures electron-updater's generic provider: background download, no install on quit, no downgrade", async () => {
    const u = { autoDownload: false, autoInstallOnAppQuit: true, allowDowngrade: true, setFeedURL: vi.fn(), checkForUpdates: vi.fn(async () => null), quitAndInstall: vi.fn(), on: vi.fn() };
    const adapted = electronUpdaterAdapter(u as never);
    adapted.configure('https://updates.example.corp/');
    expect(u).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: false, allowDowngrade: false });
    expect(u.setFeedURL).toHaveBeenCalledWith({ provider: 'generic', url: 'https://updates.example.corp/' });
    const got = vi.fn();
    adapted.onDownloaded(got);
    (u.on.mock.calls[0] as unknown as [string, (info: { version: string }) => void])[1]({ version: '0.2.0' });
    expect(u.on.mock.calls[0]![0]).toBe('update-downloaded');
    expect(got).toHaveBeenCalledWith('0.2.0');
    adapted.install();
    expect(u.quitAndInstall).toHaveBeenCalledWith(false, true);
  });
});
