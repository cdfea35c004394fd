import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../main/client/index.js';
import { getOperation, ValidationError, type Operation } from '../../../app/catalog/index.js';
import { RecordingServer, json } from '../../support/recording-server.js';

/** Resolved at run time, as the CLI does: these tests send what the compiler would refuse a typed caller, to show the client refuses it too. */
const op = (key: string): Operation => getOperation(key);

/** The wire rules of the interface (general facts 1–3, section 5), checked on a recording server. */
describe('client wire rules', () => {
  const server = new RecordingServer();
  let base = '';
  let client: ApiClient;

  beforeAll(async () => {
    base = await server.start();
    client = new ApiClient({ baseUrl: base, timeoutMs: 2000 });
  });
  afterEach(() => {
    server.responder = (_req, res) => json(res, 200, 'ok');
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('sends Accept: application/json and the bearer token on every call', async () => {
    server.responder = (_r, res) => json(res, 200, { Data: [] });
    await client.call(op('GET /hosts/list'), { token: 'tok-A' });
    expect(server.last.headers.accept).toBe('application/json');
    expect(server.last.headers.authorization).toBe('Bearer tok-A');
    expect(server.last.method).toBe('GET');
    expect(server.last.body).toBe('');
  });

  it('sends bodies as JSON with Content-Type application/json-patch+json, names in the catalog spelling', async () => {
    await client.call(op('POST /hosts/create'), { token: 't', body: { name: 'esx01', Wwns: ['50:01:43:80:12:34:56:78'], iqn: 'iqn.1998-01.com.vmware:esx01' } });
    expect(server.last.method).toBe('POST');
    expect(server.last.headers['content-type']).toBe('application/json-patch+json');
    expect(server.last.headers.accept).toBe('application/json');
    expect(JSON.parse(server.last.body)).toEqual({ Name: 'esx01', Wwns: ['50:01:43:80:12:34:56:78'], Iqn: 'iqn.1998-01.com.vmware:esx01' });
  });

  it('sends delete selectors as query parameters and no body', async () => {
    await client.call(op('DELETE /hosts/delete'), { token: 't', query: { name: 'esx01', async: false } });
    expect(server.last.method).toBe('DELETE');
    expect(server.lastQuery()).toEqual([['name', 'esx01'], ['async', 'false']]);
    expect(server.last.body).toBe('');
    expect(server.last.headers['content-type']).toBeUndefined();
  });

  it('sends array query parameters as repeated keys', async () => {
    await client.call(op('DELETE /hosts/mappings/delete'), { token: 't', query: { application: 'db', hosts: ['a', 'b'], volumes: ['v1'] } });
    expect(server.lastQuery()).toEqual([['application', 'db'], ['hosts', 'a'], ['hosts', 'b'], ['volumes', 'v1']]);
    expect(new URL(server.last.url, base).search).toBe('?application=db&hosts=a&hosts=b&volumes=v1');
  });

  it('writes date-times as YYYY-MM-DDTHH:MM:SS', async () => {
    server.responder = (_r, res) => json(res, 200, { PerformanceStatstics: [] });
    await client.call(op('GET /monitoring/performance/history'), {
      token: 't',
      query: { fromDate: new Date('2026-03-01T10:20:30.456Z'), toDate: '2026-03-02T00:00:00Z', interval: 5 },
    });
    expect(server.lastQuery()).toEqual([['fromDate', '2026-03-01T10:20:30'], ['toDate', '2026-03-02T00:00:00'], ['interval', '5']]);
  });

  it("sends the datastore's async as a header, not a query parameter", async () => {
    server.responder = (_r, res) => {
      res.writeHead(200);
      res.end();
    };
    const result = await client.call(op('POST /hypervisor/datastore/plugin/create'), {
      token: 't',
      headers: { async: true },
      body: { datastore: { Name: 'ds1', Volume: ['v1'] }, ManagerAddress: '10.0.0.5' },
    });
    expect(result).toBeUndefined();
    expect(server.last.headers.async).toBe('true');
    expect(new URL(server.last.url, base).search).toBe('');
    expect(JSON.parse(server.last.body)).toEqual({ datastore: { Name: 'ds1', Volume: ['v1'] }, ManagerAddress: '10.0.0.5' });
  });

  it('keeps the path prefix of the base URL', async () => {
    const prefixed = new ApiClient({ baseUrl: `${base}/mgmt/api/`, timeoutMs: 2000 });
    server.responder = (_r, res) => json(res, 200, { Versions: [] });
    await prefixed.call('GET /Version', { token: 't' });
    await prefixed.close();
    expect(new URL(server.last.url, base).pathname).toBe('/mgmt/api/Version');
  });

  it('logs in without a token and selects a system with the session token', async () => {
    server.responder = (req, res) =>
      req.url.endsWith('/login') ? json(res, 200, { SessionToken: 'S1', Status: 'Ok' }) : json(res, 200, 'switched');
    const result = await client.login({ Username: 'admin', Password: 'pw' });
    expect(result.SessionToken).toBe('S1');
    expect(server.last.headers.authorization).toBeUndefined();
    expect(JSON.parse(server.last.body)).toEqual({ Username: 'admin', Password: 'pw' });
    await client.selectSystem('S1', 'sys-b');
    expect(server.last.url).toBe('/systems/select?name=sys-b');
    expect(server.last.headers.authorization).toBe('Bearer S1');
  });

  it('validates parameter types against the catalog before sending anything', async () => {
    const before = server.requests.length;
    const attempts: Array<() => Promise<unknown>> = [
      () => client.call(op('GET /resources/drives/smart'), { token: 't', query: { driveid: 'seven' } }),
      () => client.call(op('GET /hosts/list'), { token: 't', query: { wwn: 'yes' } }),
      () => client.call(op('GET /hosts/list'), { token: 't', query: { colour: 'red' } }),
      () => client.call(op('POST /hosts/create'), { token: 't', body: { Wwns: 'not-an-array' } }),
      () => client.call(op('POST /templates/volumes/create'), { token: 't', body: { Tiers: { TierN: ['x'] } } }),
      () => client.call(op('GET /monitoring/performance/history'), { token: 't', query: { fromDate: 'yesterday' } }),
      () => client.call(op('POST /hypervisor/datastore/plugin/create'), { token: 't', headers: { async: 'maybe' } }),
      () => client.call(op('GET /hosts/list'), { token: 't', body: { Name: 'x' } }),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toBeInstanceOf(ValidationError);
    await expect(attempts[0]!()).rejects.toThrow(/driveid: expected an integer, got "seven"/);
    await expect(attempts[4]!()).rejects.toThrow(/Tiers\.TierN\[0\]: expected an integer/);
    expect(server.requests.length).toBe(before);
  });

  it('coerces numeric and boolean text for typed parameters', async () => {
    await client.call(op('GET /resources/drives/smart'), { token: 't', query: { node: 'n1', driveid: '7' } });
    expect(server.lastQuery()).toEqual([['node', 'n1'], ['driveid', '7']]);
    await client.call(op('PUT /resources/drives/approve'), { token: 't', body: { DriveIds: ['3', 4], All: 'false' } });
    expect(JSON.parse(server.last.body)).toEqual({ DriveIds: [3, 4], All: false });
  });

  it('passes free-form query parameters for GET /configurations/list', async () => {
    server.responder = (_r, res) => json(res, 200, { Data: [] });
    await client.call(op('GET /configurations/list'), { token: 't', query: { anything: 'x', other: ['1', '2'] } });
    expect(server.lastQuery()).toEqual([['anything', 'x'], ['other', '1'], ['other', '2']]);
  });
});
