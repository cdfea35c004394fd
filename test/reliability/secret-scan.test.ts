import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores } from '../../main/store/stores.js';
import { SiteStore } from '../../main/store/site-store.js';
import { startSimulator, type SimulatorHandle } from '../../simulator/index.js';
import { filesUnder, tempDir, until } from './support.js';

/**
 * Secret scan, end to end: the real browser shell process (`main/shells/web.ts`, what `npm run web`
 * runs) is driven over its HTTP IPC exactly as the renderer drives it, through a session that types
 * every kind of secret the interface has. Afterwards no marker may be found in the data directory
 * (WAL checkpointed), the process's stdout/stderr, the exported audit pack, any IPC response or any
 * event pushed to the page.
 */

const repo = fileURLToPath(new URL('../../', import.meta.url));

const MARKERS = {
  sitePassword: 'MKsitepw-4417-Zq',
  userPassword: 'MKuserpw-9021-Xa',
  userPassword2: 'MKuserpw2-3310-Yb',
  hostChap: 'MKhostchap82',
  targetChap: 'MKtgtchap571',
  snmpCommunity: 'MKcommunity-6620',
  snmpAuth: 'MKauthphrase-1187',
  snmpPrivacy: 'MKprivphrase-5092',
  sedPassword: 'MKsedpw-7734-Pp',
  emailPassword: 'MKmailpw-2248-Rr',
  encryptionKey: '5ec2e7ab'.repeat(8),
} as const;

interface Shell {
  child: ChildProcess;
  port: number;
  token: string;
  stdout: string[];
  stderr: string[];
}

/** Starts `web.ts` on a data dir (secrets in memory) and waits for the URL it prints. */
async function startWebShell(dataDir: string): Promise<Shell> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'main/shells/web.ts'), '--data-dir', dataDir, '--port', '0'], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory' },
  });
  const shell: Shell = { child, port: 0, token: '', stdout: [], stderr: [] };
  child.stdout?.setEncoding('utf8').on('data', (c: string) => shell.stdout.push(c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => shell.stderr.push(c));
  await until(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.test(shell.stdout.join('')), () => `the shell's URL; stderr: ${shell.stderr.join('')}`, 30_000);
  const url = new URL(/http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(shell.stdout.join(''))![0]);
  shell.port = Number(url.port);
  shell.token = url.searchParams.get('token') ?? '';
  return shell;
}

describe('secret scan of a scripted session through the browser shell', () => {
  let sim: SimulatorHandle;
  let shell: Shell;
  const data = tempDir('fd-secrets-');
  const dataDir = join(data.dir, 'data');
  const exportDir = join(data.dir, 'export');
  /** Everything the page received: every IPC response body and the event stream. */
  const toRenderer: string[] = [];
  /** What the page sent (holds the markers): the positive control of the scanner. */
  const sent: string[] = [];
  const sessionTokens = new Set<string>();
  let events: ClientRequest | undefined;

  const collectTokens = (): void => {
    for (const site of sim.fleet.sites) for (const token of site.sessions.keys()) sessionTokens.add(token);
  };

  function ipc(channel: string, body: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
    const text = JSON.stringify(body);
    sent.push(text);
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: shell.port, path: `/ipc/${channel}`, method: 'POST', headers: { host: `127.0.0.1:${shell.port}`, 'content-type': 'application/json', 'x-fleetdeck-token': shell.token } },
        (res) => {
          let out = '';
          res.setEncoding('utf8').on('data', (c: string) => (out += c));
          res.on('end', () => {
            toRenderer.push(out);
            collectTokens();
            resolve(JSON.parse(out) as { ok: boolean });
          });
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  }

  async function ok(channel: string, body: unknown): Promise<unknown> {
    const r = await ipc(channel, body);
    expect(r.error, `${channel} ${JSON.stringify(body).slice(0, 80)}`).toBeUndefined();
    return r.value;
  }

  beforeAll(async () => {
    sim = await startSimulator({ sites: 2, systems: 2, seed: 'reliability-secrets', password: MARKERS.sitePassword, controlServer: false });
    // Site A is configured before the app starts (its password typed later at login); site B is added in the session.
    const a = sim.manifest.sites[0]!;
    await new SiteStore({ dataDir }).add({ name: a.name, baseUrl: a.baseUrl, username: a.username });
    shell = await startWebShell(dataDir);
    await new Promise<void>((resolve, reject) => {
      events = request({ host: '127.0.0.1', port: shell.port, path: `/events?token=${shell.token}`, headers: { host: `127.0.0.1:${shell.port}` } }, (res) => {
        res.setEncoding('utf8').on('data', (c: string) => toRenderer.push(c));
        resolve();
      });
      events.on('error', reject);
      events.end();
    });
  }, 60_000);

  afterAll(async () => {
    events?.destroy();
    if (shell.child.exitCode === null) shell.child.kill('SIGKILL');
    await sim.close();
    data.remove();
  });

  it('types every kind of secret, then finds none outside memory', async () => {
    const [a, b] = sim.manifest.sites;
    const sites = (await ok('sites:list', {})) as Array<{ id: string; name: string }>;
    const siteA = sites.find((s) => s.name === a!.name)!.id;
    await ok('session:login', { site: siteA, password: MARKERS.sitePassword });
    await ok('sites:add', { name: b!.name, baseUrl: b!.baseUrl, username: b!.username, password: MARKERS.sitePassword });
    const first = (await ok('fleet:refresh', { force: true })) as Array<{ siteId: string; system: string; state: string }>;
    expect(first.map((s) => s.state)).toEqual(['ok', 'ok', 'ok', 'ok']);
    const system = first.find((s) => s.siteId === siteA)!.system;
    const call = (operation: string, body: unknown): Promise<unknown> => ok('op:call', { site: siteA, system, operation, body });

    await call('POST /users/create', { Name: 'scan-user', Password: MARKERS.userPassword, Role: 'Viewer', Email: 'scan@example.com' });
    await ok('op:call', { site: siteA, system, operation: 'PUT /users/edit', query: { name: 'scan-user' }, body: { Password: MARKERS.userPassword2 } });
    await call('POST /hosts/create', { Name: 'scan-host', Iqn: 'iqn.2026-01.io.fleetdeck:scan', ChapSecret: MARKERS.hostChap });
    await call('PUT /nodes/chap', { ChapName: 'scan-target', ChapSecret: MARKERS.targetChap });
    await call('POST /notifications/targets/snmp/add', {
      Name: 'scan-trap',
      Ip: '10.1.0.9',
      TrapVersion: 'v3',
      V3Username: 'scan',
      V3AuthPhrase: MARKERS.snmpAuth,
      V3PrivacyPhrase: MARKERS.snmpPrivacy,
      CommunityString: MARKERS.snmpCommunity,
    });
    await call('PUT /resources/drives/sed/supply_password', { Password: MARKERS.sedPassword });
    await call('PUT /applications/encryption/supply_encryption_key', { Cgid: 1, EncryptionKey: MARKERS.encryptionKey });
    await call('PUT /notifications/settings/email/edit', { Server: 'smtp.example.com', Port: 587, Username: 'mailer', Password: MARKERS.emailPassword, SendFromAddress: 'fleet@example.com' });
    // A refused write carrying a secret: its error travels back to the page and into the action log.
    const refused = await ipc('op:call', { site: siteA, system, operation: 'POST /users/create', body: { Name: 'scan-user', Password: MARKERS.userPassword, Role: 'Viewer' } });
    expect(refused.ok).toBe(false);

    // Everything a page would read back afterwards.
    for (const operation of ['GET /users/list', 'GET /hosts/list', 'GET /notifications/targets/list', 'GET /notifications/settings/email/show', 'GET /nodes/list']) {
      await ok('op:call', { site: siteA, system, operation });
      await ok('cache:read', { site: siteA, system, operation });
    }
    await ok('fleet:refresh', { force: true });
    await ok('fleet:status', {});
    await ok('sites:list', {});
    const log = (await ok('log:list', {})) as unknown[];
    expect(log.length).toBeGreaterThanOrEqual(9);
    expect(await ok('log:verify', {})).toMatchObject({ ok: true });
    // The action log view's page and both exports (handed to the page to download).
    expect(await ok('log:query', { operation: 'users/create' })).toMatchObject({ total: expect.any(Number) });
    for (const format of ['csv', 'json']) expect(await ok('log:export', { format })).toMatchObject({ kind: 'download', count: log.length });
    const report = (await ok('reports:generate', { kind: 'audit' })) as { id: number };
    // The browser shell hands the audit pack to the page as one ZIP: unpacked here as the admin would.
    const pack = (await ok('reports:export', { id: report.id, formats: ['pdf', 'html', 'csv', 'json'] })) as { fileName: string; base64: string };
    mkdirSync(exportDir, { recursive: true });
    writeFileSync(join(exportDir, pack.fileName), Buffer.from(pack.base64, 'base64'));
    execFileSync('unzip', ['-q', '-j', join(exportDir, pack.fileName), '-d', exportDir]);
    collectTokens();

    // Stop the app as a user would (SIGTERM closes the database), then checkpoint whatever WAL is left.
    const exited = new Promise<number | null>((resolve) => shell.child.once('exit', (code) => resolve(code)));
    shell.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Every data file: the cache, the action log and the report history.
    const stores = openStores(dataDir);
    for (const db of [stores.cacheDb, stores.reportsDb]) db.pragma('wal_checkpoint(TRUNCATE)');
    stores.close();

    const markers = [...Object.values(MARKERS), ...sessionTokens];
    expect(sessionTokens.size, 'session tokens seen on the simulator').toBeGreaterThanOrEqual(4);
    const places: Array<{ where: string; text: string }> = [
      ...filesUnder(dataDir).map((f) => ({ where: f.path, text: f.bytes.toString('latin1') })),
      { where: 'stdout', text: shell.stdout.join('') },
      { where: 'stderr', text: shell.stderr.join('') },
      ...toRenderer.map((text, i) => ({ where: `to the renderer #${i}`, text })),
      ...filesUnder(exportDir).map((f) => ({ where: f.path, text: f.bytes.toString('latin1') })),
      ...filesUnder(exportDir)
        .filter((f) => f.path.endsWith('.pdf'))
        .map((f) => ({ where: `${f.path} (text)`, text: execFileSync('pdftotext', ['-layout', f.path, '-'], { encoding: 'utf8' }) })),
    ];
    expect(existsSync(join(exportDir, 'manifest.json'))).toBe(true);
    expect(places.filter((p) => p.where.endsWith('.pdf (text)')).length).toBeGreaterThan(0);
    // The audit pack really holds the session's data (so scanning it means something).
    expect(places.some((p) => p.where.startsWith(exportDir) && p.text.includes('scan-host'))).toBe(true);
    const found: string[] = [];
    for (const p of places) for (const m of markers) if (p.text.includes(m)) found.push(`${m.slice(0, 10)}… in ${p.where}`);
    expect(found).toEqual([]);
    // Positive control: the same scan finds every typed marker in what the page sent.
    const typed = sent.join('\n');
    for (const m of Object.values(MARKERS)) expect(typed.includes(m), m).toBe(true);
  }, 90_000);
});

