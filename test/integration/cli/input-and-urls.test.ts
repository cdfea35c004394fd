// URL schemes in any case, local usage errors (exit 2, nothing sent),
// site names with text-direction characters, secrets outside --body.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, loginThen, RecordingServer } from '../../support/recording-server.js';
import { runFleetdeck } from '../../support/run-cli.js';
import { testCa } from '../../support/tls-cert.js';

const haveKeyring = process.env.FLEETDECK_TEST_KEYRING === '1';
const PASSWORD = 'MARKER-URL-PASSWORD-2b7e';
const sha256Of = (pem: string): string => new X509Certificate(pem).fingerprint256.replace(/:/g, '').toLowerCase();
const logins = (server: RecordingServer) => server.requests.filter((r) => r.url.endsWith('/login'));

describe('local usage errors exit 2 and send nothing', { timeout: 120_000 }, () => {
  const server = new RecordingServer();
  let url = '';
  let dir = '';
  const memory = { env: { FLEETDECK_KEYCHAIN: 'memory' } };
  const cli = (args: string[], stdin?: string) => runFleetdeck([...args, '--data-dir', dir], { ...memory, ...(stdin ? { stdin } : {}) });

  beforeAll(async () => {
    url = await server.start();
    server.responder = loginThen((_req, res) => json(res, 200, 'done'));
    dir = mkdtempSync(join(tmpdir(), 'fd-usage-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses bad site input before contacting anything', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['site', 'add', 'bad name ', '--url', 'https://192.0.2.1', '--user', 'a'], /cannot be empty or start\/end with a space/],
      [['site', 'add', 'ok', '--url', 'notaurl', '--user', 'a'], /is not a URL/],
      [['site', 'add', 'ok', '--url', 'ftp://x.example', '--user', 'a'], /must start with https/],
      [['site', 'add', 'ok', '--url', 'http://192.0.2.1', '--user', 'a'], /plain http to 192.0.2.1/],
      [['site', 'add', 'ok', '--url', url, '--user', 'a', '--ca', '/nonexistent/ca.pem'], /--ca: cannot read \/nonexistent\/ca.pem/],
      [['log', '--since', 'yesterday-ish'], /--since takes a time/],
      [['log', '--limit', 'lots'], /--limit takes a whole number/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(server.requests).toEqual([]);
  });

  it('refuses right-to-left overrides and other control or direction characters in site names', async () => {
    for (const name of ['invoice\u202Efdp.exe', 'lab\u2066a', 'lab\u200Fa', 'lab\u0085a', 'lab\u001b[31m']) {
      const r = await cli(['site', 'add', name, '--url', url, '--user', 'a']);
      expect(r.code, JSON.stringify(name)).toBe(2);
      expect(r.stderr).toMatch(/cannot contain control or text-direction characters/);
    }
    expect((await cli(['site', 'list', '--json'])).stdout.trim()).toBe('[]');
  });

  it('refuses plain http to a remote host however the scheme is spelt', async () => {
    for (const scheme of ['http', 'HTTP', 'Http']) {
      const r = await runFleetdeck(['call', '--url', `${scheme}://192.0.2.1:9`, '--user', 'a', '--password-stdin', '--timeout', '2000', 'GET /hosts/list'], { stdin: 'pw' });
      expect(r.code, `${scheme}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/plain http is only used for loopback/);
    }
    const loopback = await runFleetdeck(['call', '--url', url.replace('http://', 'HTTP://'), '--user', 'a', '--password-stdin', 'DELETE /hosts/delete', '--query', 'name=h1'], { stdin: 'pw' });
    expect(loopback.code, loopback.stderr).toBe(0);
  });

  it('refuses a secret option the operation has no field for, one given twice, or one that cannot be read', async () => {
    server.requests.length = 0;
    const base = ['call', '--url', url, '--user', 'admin', '--password-stdin'];
    const cases: Array<[string[], RegExp]> = [
      [[...base, 'POST /hosts/create', '--body', '{"Name":"h1"}', '--secret-env', 'Password=FD_TEST_SECRET'], /"Password" is not a secret field of POST \/hosts\/create; its secret fields: ChapSecret/],
      [[...base, 'POST /hosts/create', '--body', '{"Name":"h1","chapsecret":"x"}', '--secret-env', 'ChapSecret=FD_TEST_SECRET'], /ChapSecret is given twice/],
      [[...base, 'POST /hosts/create', '--body', '{"Name":"h1"}', '--secret-env', 'ChapSecret=FD_TEST_UNSET'], /FD_TEST_UNSET is not set/],
      [[...base, 'POST /hosts/create', '--body', '{"Name":"h1"}', '--secret-file', 'ChapSecret=/nonexistent/secret'], /cannot read \/nonexistent\/secret/],
      [[...base, 'POST /hosts/create', '--body', '{"Name":"h1"}', '--secret-stdin', 'ChapSecret'], /standard input already carries the password/],
    ];
    for (const [args, message] of cases) {
      const r = await runFleetdeck(args, { stdin: 'pw\n', env: { FD_TEST_SECRET: 'chap-secret-123' } });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(server.requests).toEqual([]);
  });

  it('sends a write secret given by file or environment variable, never on the command line', async () => {
    server.requests.length = 0;
    const file = join(dir, 'chap.txt');
    writeFileSync(file, 'chap-from-file-42\n', { mode: 0o600 });
    const base = ['call', '--url', url, '--user', 'admin', '--password-stdin', 'POST /hosts/create', '--body', '{"Name":"h1","Iqn":"iqn.2026-01.example:h1"}'];
    const fromFile = await runFleetdeck([...base, '--secret-file', `ChapSecret=${file}`], { stdin: 'pw\n' });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(server.last.body)).toEqual({ Name: 'h1', Iqn: 'iqn.2026-01.example:h1', ChapSecret: 'chap-from-file-42' });
    const fromEnv = await runFleetdeck([...base, '--secret-env', 'chapsecret=FD_TEST_SECRET'], { stdin: 'pw\n', env: { FD_TEST_SECRET: 'chap-from-env-43' } });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(JSON.parse(server.last.body)).toMatchObject({ ChapSecret: 'chap-from-env-43' });
    // A secret left in --body still works, with a warning that the process list shows it.
    const inBody = await runFleetdeck(['call', '--url', url, '--user', 'admin', '--password-stdin', 'POST /hosts/create', '--body', '{"Name":"h1","ChapSecret":"chap-in-body-44"}'], { stdin: 'pw\n' });
    expect(inBody.code).toBe(0);
    expect(inBody.stderr).toMatch(/--body carries a secret.*--secret-stdin, --secret-file or --secret-env/);
  });
});

describe('https in any case is pinned (the CA-trusted certificate of someone else is refused)', { timeout: 120_000 }, () => {
  let ca: Awaited<ReturnType<typeof testCa>>;
  let leafA: { key: string; cert: string };
  let leafB: { key: string; cert: string };
  let server: RecordingServer;
  let dir: string;
  let caFile: string;
  let upperUrl: string;

  beforeAll(async () => {
    ca = await testCa();
    leafA = await ca.issue();
    leafB = await ca.issue();
    server = new RecordingServer({ tls: leafA });
    server.responder = loginThen((_req, res) => json(res, 200, { Data: [{ Name: 'alpha' }] }));
    await server.start();
    upperUrl = `HTTPS://LOCALHOST:${server.port}`;
    dir = mkdtempSync(join(tmpdir(), 'fd-https-'));
    caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, ca.caCert);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // The CA is trusted by the whole process, as a public CA would be.
  const trustedCa = () => ({ NODE_EXTRA_CA_CERTS: caFile });

  it('fleetdeck call --url HTTPS://… --trust pins the certificate: another one signed by a trusted CA gets no password', async () => {
    server.setCertificate(leafA);
    const ok = await runFleetdeck(['call', '--url', upperUrl, '--user', 'admin', '--password-stdin', '--trust', sha256Of(leafA.cert), 'GET /systems/list'], { stdin: `${PASSWORD}\n`, env: trustedCa() });
    expect(ok.code, ok.stderr).toBe(0);
    server.setCertificate(leafB);
    const before = logins(server).length;
    const r = await runFleetdeck(['call', '--url', upperUrl, '--user', 'admin', '--password-stdin', '--trust', sha256Of(leafA.cert), 'GET /systems/list'], { stdin: `${PASSWORD}\n`, env: trustedCa() });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/certificate changed/);
    expect(logins(server).length).toBe(before);
  });

  it.runIf(haveKeyring)('a saved site added as HTTPS://… keeps its pin: another CA-trusted certificate gets no password', async () => {
    server.setCertificate(leafA);
    const cli = (args: string[], stdin?: string) => runFleetdeck([...args, '--data-dir', dir], { ...(stdin ? { stdin } : {}), env: trustedCa(), timeoutMs: 60_000 });
    const add = await cli(['site', 'add', 'upper', '--url', upperUrl, '--user', 'admin', '--password-stdin', '--trust', sha256Of(leafA.cert)], `${PASSWORD}\n`);
    expect(add.code, add.stderr).toBe(0);
    expect((await cli(['call', 'upper', 'GET /systems/list'])).code).toBe(0);

    server.setCertificate(leafB);
    await cli(['logout', 'upper']);
    const before = server.requests.length;
    const r = await cli(['call', 'upper', 'GET /systems/list']);
    expect(r.code, r.stderr).toBe(5);
    expect(server.requests.slice(before)).toEqual([]);
    expect(add.stdout).toContain(`(https://localhost:${server.port})`);
    await cli(['site', 'remove', 'upper']);
  });
});
