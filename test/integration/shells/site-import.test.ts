// An admin upgrading from a Fleetdeck that kept its sites in sites.json is told, in the window, what
// became of it: through the IPC contract (app:info), once, until dismissed (notices:dismiss).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/main.js';
import { dispatch } from '../../../main/ipc/handlers.js';
import { launchCore, parseLaunchArgs, type Launched } from '../../../main/shells/launch.js';

const SITE = {
  id: 'paris',
  name: 'Paris',
  // Nothing listens there: on-demand polling, and no refresh is asked for.
  baseUrl: 'https://127.0.0.1:9',
  username: 'admin',
  tags: [],
  tls: {},
  allowHttp: false,
  polling: { intervalSeconds: 0, paused: false, maxInFlight: 4 },
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
};

describe('the sites.json import, told in the window', () => {
  const dirs: string[] = [];
  const open: Launched[] = [];
  afterEach(async () => {
    for (const core of open.splice(0)) await core.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const dataDir = (sitesJson: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-import-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'sites.json'), sitesJson, { mode: 0o600 });
    return dir;
  };
  const launch = async (dir: string): Promise<Launched> => {
    const core = await launchCore(parseLaunchArgs(['--data-dir', dir], { FLEETDECK_KEYCHAIN: 'memory' }), () => undefined);
    open.push(core);
    return core;
  };
  const info = async (core: Launched): Promise<Record<string, unknown>> => {
    const answer = await dispatch(core.runtime.handlers, 'app:info', {});
    if (!answer.ok) throw new Error(answer.error.message);
    return answer.value as Record<string, unknown>;
  };
  const cliList = async (dir: string): Promise<string> => {
    const err: string[] = [];
    await runCli(['site', 'list', '--data-dir', dir], { stdout: () => undefined, stderr: (t) => err.push(t), readStdin: async () => '', env: { FLEETDECK_KEYCHAIN: 'memory' } });
    return err.join('');
  };

  it('reports the sites imported and the file’s new name until dismissed, then never again, not after a restart', async () => {
    const dir = dataDir(JSON.stringify({ version: 1, sites: [SITE, { ...SITE, id: 'lyon', name: 'Lyon' }] }));
    const core = await launch(dir);
    expect(core.demo).toBeUndefined();
    const renamed = readdirSync(dir).find((f) => f.startsWith('sites.json.imported-'));
    expect(renamed).toBeDefined();
    const notice = { kind: 'imported', file: join(dir, 'sites.json'), sites: 2, renamedTo: renamed, message: `2 sites were imported from ${join(dir, 'sites.json')} (renamed to ${renamed}).` };
    expect((await info(core)).siteImport).toEqual(notice);
    // A reload asks again: still told, and by the CLI too.
    expect((await info(core)).siteImport).toEqual(notice);
    expect(await cliList(dir)).toBe(`fleetdeck: ${notice.message}\n`);

    expect(await dispatch(core.runtime.handlers, 'notices:dismiss', { notice: 'site-import' })).toEqual({ ok: true, value: { ok: true } });
    expect((await info(core)).siteImport).toBeUndefined();
    expect(await cliList(dir)).toBe('');
    await core.close();
    open.splice(0);
    const restarted = await launch(dir);
    expect((await info(restarted)).siteImport).toBeUndefined();
    expect(restarted.runtime.sites.list().map((s) => s.id)).toEqual(['paris', 'lyon']);
  });

  it('opens the admin’s own, empty fleet (not the demo) when sites.json is damaged, and says what is wrong and where', async () => {
    const dir = dataDir('{ "version": 1, "sites": [ ');
    const core = await launch(dir);
    expect(core.demo).toBeUndefined();
    expect((await info(core)).simulated).toBe(false);
    const notice = (await info(core)).siteImport as { kind: string; file: string; message: string };
    expect(notice.kind).toBe('not-imported');
    expect(notice.file).toBe(join(dir, 'sites.json'));
    expect(notice.message).toContain(`${join(dir, 'sites.json')} is not valid JSON`);
    expect(notice.message).toContain('nothing is lost');
    // Adding a site is refused while the file is there: it would never be imported afterwards.
    const add = await dispatch(core.runtime.handlers, 'sites:add', { name: 'Lab', baseUrl: 'http://127.0.0.1:9', username: 'admin' });
    expect(add).toMatchObject({ ok: false, error: { message: expect.stringContaining('sites.json is not valid JSON') } });
    await dispatch(core.runtime.handlers, 'notices:dismiss', { notice: 'site-import' });
    expect((await info(core)).siteImport).toBeUndefined();
    expect(readdirSync(dir)).toContain('sites.json');
  });
});
