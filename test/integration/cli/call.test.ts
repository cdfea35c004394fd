import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingServer, json, loginThen } from '../../support/recording-server.js';
import { runFleetdeck } from '../../support/run-cli.js';

describe('fleetdeck operations', () => {
  it('--json lists 129 operations with method, path, group, query, body, response, writes, destructive', async () => {
    const r = await runFleetdeck(['operations', '--json']);
    expect(r.code).toBe(0);
    const ops = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(ops).toHaveLength(129);
    const create = ops.find((o) => o.path === '/hosts/create');
    expect(create).toMatchObject({
      method: 'POST',
      group: 'hosts',
      query: [{ name: 'async', type: 'boolean' }, { name: 'uncommitAndAggregateId', type: 'string' }],
      body: expect.arrayContaining([{ name: 'Wwns', type: 'string[]' }, { name: 'ChapSecret', type: 'string' }]),
      response: 'string',
      writes: true,
      destructive: false,
    });
    expect(ops.find((o) => o.path === '/hosts/list')).toMatchObject({ response: '{Data:[Host]}', writes: false });
  });

  it('prints a readable table without --json', async () => {
    const r = await runFleetdeck(['operations']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/GET\s+\/systems\/list/);
    expect(r.stdout).toMatch(/129 operations/);
  });
});

describe('fleetdeck call', () => {
  const server = new RecordingServer();
  let url = '';
  beforeAll(async () => {
    url = await server.start();
  });
  afterAll(() => server.close());

  const base = () => ['call', '--url', url, '--user', 'admin', '--password-stdin'];

  it('logs in, selects the system, makes the call and prints the JSON answer', async () => {
    server.requests.length = 0;
    server.responder = loginThen((_req, res) => json(res, 200, { Data: [{ Name: 'esx01', ChapSecret: 'hush-hush-123' }] }));
    const r = await runFleetdeck([...base(), '--system', 'sys-b', 'GET /hosts/list', '--query', 'name=esx01', '--query', 'mapping=true'], {
      stdin: 'pw-secret-42\n',
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ Data: [{ Name: 'esx01', ChapSecret: '[redacted]' }] });
    expect(server.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      'POST /login',
      'GET /systems/select?name=sys-b',
      'GET /hosts/list?name=esx01&mapping=true',
    ]);
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ Username: 'admin', Password: 'pw-secret-42' });
    expect(server.requests[2]!.headers.authorization).toBe('Bearer tok-1');
    expect(r.stdout + r.stderr).not.toContain('pw-secret-42');
  });

  it('sends repeated --query values as an array and --body as JSON', async () => {
    server.responder = loginThen((_req, res) => json(res, 200, 'done'));
    const r = await runFleetdeck(
      [...base(), 'POST /hosts/mappings/add', '--body', '{"Application":"db","Hosts":["h1"],"Volumes":["v1","v2"],"LunIds":["1","2"]}'],
      { stdin: 'pw' },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toBe('done');
    expect(server.last.headers['content-type']).toBe('application/json-patch+json');
    const d = await runFleetdeck([...base(), 'DELETE /hosts/wwn/delete', '--query', 'name=h1', '--query', 'wwns=a', '--query', 'wwns=b'], { stdin: 'pw' });
    expect(d.code).toBe(0);
    expect(server.last.url).toBe('/hosts/wwn/delete?name=h1&wwns=a&wwns=b');
  });

  it("exits non-zero printing the server's message on 400 and 401", async () => {
    server.responder = loginThen((_req, res) => json(res, 400, 'Host esx01 does not exist'));
    const bad = await runFleetdeck([...base(), 'DELETE /hosts/delete', '--query', 'name=esx01'], { stdin: 'pw' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Host esx01 does not exist');
    server.responder = (_req, res) => json(res, 401, 'Invalid user name or password');
    const denied = await runFleetdeck([...base(), 'GET /hosts/list'], { stdin: 'wrong' });
    expect(denied.code).toBe(6);
    expect(denied.stderr).toContain('Invalid user name or password');
  });

  it('fails before sending anything when a parameter has the wrong type', async () => {
    server.requests.length = 0;
    const r = await runFleetdeck([...base(), 'GET /resources/drives/smart', '--query', 'driveid=abc'], { stdin: 'pw' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/driveid: expected an integer, got "abc"/);
    expect(server.requests).toHaveLength(0);
  });

  it('says clearly when the site is unreachable', async () => {
    const r = await runFleetdeck(['call', '--url', 'http://127.0.0.1:9', '--user', 'a', '--password-stdin', 'GET /hosts/list'], { stdin: 'pw' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/unreachable \(connection refused\)/);
  });

  it('refuses plain http to a non-loopback host without --allow-http, and unknown operations', async () => {
    const http = await runFleetdeck(['call', '--url', 'http://storage.example', '--user', 'a', '--password-stdin', 'GET /hosts/list'], { stdin: 'pw' });
    expect(http.code).toBe(2);
    expect(http.stderr).toMatch(/plain http is only used for loopback/);
    const unknown = await runFleetdeck([...base(), 'GET /no/such'], { stdin: 'pw' });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown operation "GET \/no\/such"/);
  });
});
