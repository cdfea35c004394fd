import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/ipc/handlers.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { hostileSite } from '../../support/hostile-site.js';
import { json, RecordingServer } from '../../support/recording-server.js';

const PASSWORD = 'Site"Pass<word>&9f2e';
const CHAP = 'Chap/Secret+Echo=7d1';
const USER_PASSWORD = 'user pass é 31aa';
const SECRETS = [PASSWORD, CHAP, USER_PASSWORD];

/** The names `htmlentities(…, ENT_HTML5)` gives the characters of these bodies. */
const NAMED: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos', '/': 'sol', '+': 'plus', '=': 'equals', ':': 'colon', ',': 'comma', '{': 'lbrace', '}': 'rbrace', é: 'eacute' };

/** The spellings a system or a proxy echoes a request body in. */
const SPELLINGS: Record<string, (text: string) => string> = {
  'upper case': (t) => t.toUpperCase(),
  'URL-encoded': (t) => encodeURIComponent(t),
  'form-encoded': (t) => new URLSearchParams({ body: t }).toString(),
  '.NET \\u escapes': (t) => t.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  'HTML entities': (t) => t.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`).replace(/[^\x20-\x7e]/g, (c) => `&#x${c.codePointAt(0)?.toString(16)};`),
  'HTML named references (PHP ENT_HTML5)': (t) => t.replace(/[&<>"'/+=:,{}é]/g, (c) => `&${NAMED[c]};`),
  'hex of the body': (t) => Buffer.from(t).toString('hex'),
  'Python byte escapes': (t) => [...Buffer.from(t)].map((b) => (b < 0x80 && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16)}`)).join(''),
  'base64 of the body': (t) => Buffer.from(t).toString('base64'),
  'base64 of the body after a prefix': (t) => Buffer.from(`x${t}`).toString('base64url'),
  'cut short': (t) => {
    const at = SECRETS.map((s) => t.indexOf(JSON.stringify(s).slice(1, -1))).find((i) => i >= 0) ?? t.length;
    return t.slice(0, at + 9);
  },
};

/** What an attacker reading the text could decode: every spelling above undone, then each secret looked for by its first 8 characters. */
function leaked(text: string): string | undefined {
  const views = [text];
  const unescaped = text.replace(/\\+u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\+(["\\/])/g, '$1');
  views.push(unescaped);
  const entities = unescaped.replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16))).replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&([A-Za-z]+);/g, (m, n: string) => Object.entries(NAMED).find(([, name]) => name === n)?.[0] ?? m);
  views.push(entities);
  views.push(Buffer.from(text.replace(/\\x([0-9a-f]{2})|([^\\])/gi, (_, h: string | undefined, c: string | undefined) => (h ? `%${h}` : encodeURIComponent(c ?? ''))).replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'));
  for (const run of text.match(/(?:[0-9a-f]{2}){8,}/gi) ?? []) for (let skip = 0; skip < 2; skip++) views.push(Buffer.from(run.slice(skip), 'hex').toString('utf8'));
  try {
    views.push(decodeURIComponent(entities.replace(/\+/g, ' ')));
  } catch {
    views.push(entities.replace(/\+/g, ' ').replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))));
  }
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let skip = 0; skip < 4; skip++) views.push(Buffer.from(run.slice(skip).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8'));
  }
  for (const s of SECRETS) {
    const head = s.slice(0, 8).toLowerCase();
    if (views.some((v) => v.toLowerCase().includes(head) || v.toLowerCase().includes(JSON.stringify(s).slice(1, 9).toLowerCase()))) return s;
  }
  return undefined;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('secrets a system echoes in another spelling', { timeout: 120_000 }, () => {
  const hostile = new RecordingServer();
  const echoLogin = new RecordingServer();
  let spelling: (text: string) => string = (t) => t;
  let rt: Runtime;
  let dir: string;
  let siteId: string;
  let loginSiteId: string;
  const ipc = (channel: string, payload: unknown) => dispatch(rt.handlers, channel, payload);
  const expectNoLeak = (what: string, value: unknown) => expect(leaked(JSON.stringify(value)), what).toBeUndefined();

  beforeAll(async () => {
    hostile.responder = hostileSite({ spell: () => spelling });
    echoLogin.responder = (req, res) => json(res, 401, `login refused for ${spelling(req.body)}`);
    dir = mkdtempSync(join(tmpdir(), 'fd-spell-'));
    rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 5000 });
    siteId = (await rt.fleet.addSite({ name: 'hostile', baseUrl: await hostile.start(), username: 'admin', password: PASSWORD })).id;
    loginSiteId = (await rt.fleet.addSite({ name: 'echo-login', baseUrl: await echoLogin.start(), username: 'admin', password: PASSWORD })).id;
  });
  afterAll(async () => {
    await rt?.close();
    await hostile.close();
    await echoLogin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the decoder of this test finds each secret in each spelling', () => {
    for (const [name, spell] of Object.entries(SPELLINGS)) {
      for (const s of SECRETS) expect(leaked(spell(JSON.stringify({ Password: s }))), `${name} of ${s}`).toBe(s);
    }
  });

  for (const [name, spell] of Object.entries(SPELLINGS)) {
    it(`masks a ${name} echo in answers, errors, the bulk outcome, the action log, its export, reports and the login answer`, async () => {
      spelling = spell;
      const create = await ipc('op:call', { site: siteId, system: 'alpha', operation: 'POST /hosts/create', body: { Name: 'h1', ChapSecret: CHAP } });
      expect(create.ok).toBe(false);
      expectNoLeak('op:call write error', create);
      const edit = await ipc('op:call', { site: siteId, system: 'alpha', operation: 'PUT /users/edit', query: { name: 'bob' }, body: { Password: USER_PASSWORD } });
      expect(edit.ok).toBe(true);
      expectNoLeak('op:call write answer', edit);

      const started = await ipc('bulk:start', { operation: 'PUT /nodes/chap', targets: [{ site: siteId, system: 'alpha' }], body: { ChapName: 'n', ChapSecret: CHAP } });
      expect(started.ok).toBe(true);
      const settled = await rt.bulk.settled((started as { value: { id: string } }).value.id);
      expect(settled.targets[0]?.message).toBeTruthy();
      expectNoLeak('bulk outcome', settled);
      expectNoLeak('bulk:list', await ipc('bulk:list', {}));

      expectNoLeak('log:list', await ipc('log:list', { site: siteId }));
      for (const format of ['csv', 'json'] as const) expectNoLeak(`log:export ${format}`, await ipc('log:export', { format }));
      const report = await ipc('reports:generate', { kind: 'audit', offline: true });
      expect(report.ok).toBe(true);
      expectNoLeak('reports:generate', report);

      const login = await ipc('session:login', { site: loginSiteId, password: PASSWORD });
      expect(login.ok).toBe(false);
      expectNoLeak('session:login', login);
      expectNoLeak('fleet:status', await ipc('fleet:status', {}));

      // Hash-chained records cannot be edited out afterwards: nothing on disk may hold one.
      for (const file of filesUnder(dir)) expect(leaked(readFileSync(file).toString('latin1')), file).toBeUndefined();
    });
  }
});
