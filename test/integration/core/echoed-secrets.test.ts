// A system that echoes a secret the app sent (a CHAP secret, a password, the
// session token) must not get it written into the action log, the cache, reports or IPC.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/ipc/handlers.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { HOSTILE_TOKEN, hostileSite } from '../../support/hostile-site.js';
import { json, RecordingServer } from '../../support/recording-server.js';

const PASSWORD = 'MARKER-ECHO-SITE-PASSWORD-0d4e';
const CHAP = 'MARKER-CHAP-ECHO-77';
const USER_PASSWORD = 'MARKER-USER-PASSWORD-ECHO-31';
const SECRETS = [PASSWORD, CHAP, USER_PASSWORD, HOSTILE_TOKEN];

function bytesUnder(dir: string): Buffer[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? bytesUnder(p) : [readFileSync(p)];
  });
}

describe('secrets a system echoes back', { timeout: 60_000 }, () => {
  const hostile = new RecordingServer();
  const echoLogin = new RecordingServer();
  let rt: Runtime;
  let dir: string;
  let siteId: string;
  let loginSiteId: string;
  const ipc = (channel: string, payload: unknown) => dispatch(rt.handlers, channel, payload);
  const expectNoSecret = (what: string, value: unknown) => {
    const text = JSON.stringify(value);
    for (const s of SECRETS) expect(text, `${what} holds ${s}`).not.toContain(s);
  };

  beforeAll(async () => {
    hostile.responder = hostileSite();
    // A login that fails by repeating what it was sent.
    echoLogin.responder = (req, res) => json(res, 401, `login refused for ${req.body}`);
    const url = await hostile.start();
    const loginUrl = await echoLogin.start();
    dir = mkdtempSync(join(tmpdir(), 'fd-echo-'));
    rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 5000 });
    siteId = (await rt.fleet.addSite({ name: 'hostile', baseUrl: url, username: 'admin', password: PASSWORD })).id;
    loginSiteId = (await rt.fleet.addSite({ name: 'echo-login', baseUrl: loginUrl, username: 'admin', password: PASSWORD })).id;
  });
  afterAll(async () => {
    await rt.close();
    await hostile.close();
    await echoLogin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps an echoed session token and password out of refresh states and IPC errors', async () => {
    const refreshed = await ipc('fleet:refresh', { force: true });
    expect(refreshed.ok).toBe(true);
    expectNoSecret('fleet:refresh', refreshed);
    const status = await ipc('fleet:status', {});
    expectNoSecret('fleet:status', status);
    // The echo is there, masked: the admin still reads what the system said.
    expect(JSON.stringify(status)).toContain('your session Bearer [redacted] is not allowed');
    expect(JSON.stringify(status)).toContain('login refused for {\\"Username\\":\\"admin\\",\\"Password\\":\\"[redacted]\\"}');

    const read = await ipc('op:call', { site: siteId, system: 'alpha', operation: 'GET /hosts/list' });
    expect(read).toMatchObject({ ok: false, error: { code: 'api', message: expect.stringContaining('Bearer [redacted]') } });
    expectNoSecret('op:call read', read);
    const login = await ipc('session:login', { site: loginSiteId, password: PASSWORD });
    expect(login.ok).toBe(false);
    expectNoSecret('session:login', login);
  });

  it('keeps an echoed CHAP secret or password out of IPC answers and errors, the action log and the data dir', async () => {
    const create = await ipc('op:call', { site: siteId, system: 'alpha', operation: 'POST /hosts/create', body: { Name: 'h1', ChapSecret: CHAP } });
    expect(create).toMatchObject({ ok: false, error: { code: 'api', message: expect.stringContaining('"ChapSecret":"[redacted]"') } });
    expectNoSecret('op:call write error', create);
    const edit = await ipc('op:call', { site: siteId, system: 'alpha', operation: 'PUT /users/edit', query: { name: 'bob' }, body: { Password: USER_PASSWORD } });
    expect(edit).toMatchObject({ ok: true, value: { result: expect.stringContaining('user updated') } });
    expectNoSecret('op:call write answer', edit);
    // The system really received them: masking is of what comes back, not of what is sent.
    expect(hostile.requests.some((r) => r.body.includes(CHAP))).toBe(true);
    expect(hostile.requests.some((r) => r.body.includes(USER_PASSWORD))).toBe(true);

    const log = await ipc('log:list', { site: siteId });
    expect((log as { value: unknown[] }).value).toHaveLength(2);
    expectNoSecret('log:list', log);
    const report = await ipc('reports:generate', { kind: 'audit', offline: true });
    expect(report.ok).toBe(true);
    expectNoSecret('reports:generate', report);
    for (const file of bytesUnder(dir)) for (const s of SECRETS) expect(file.includes(Buffer.from(s)), `data dir holds ${s}`).toBe(false);
  });
});
