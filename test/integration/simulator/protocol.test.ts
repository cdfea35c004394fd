import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorString, harness, raw } from './support.js';
import type { Harness } from './support.js';

describe('simulator protocol', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => h.close());

  it('matches paths case-insensitively and answers JSON', async () => {
    const r = await raw(h.baseUrl, 'GET', '/HOSTS/List', { token: h.token });
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(Array.isArray((JSON.parse(r.text) as { Data: unknown }).Data)).toBe(true);
    expect((await raw(h.baseUrl, 'GET', '/version', { token: h.token })).status).toBe(200);
  });

  it('answers a known path with a wrong method with a 400 string, and an unknown path with 404', async () => {
    const wrong = await raw(h.baseUrl, 'DELETE', '/hosts/list', { token: h.token });
    expect(wrong.status).toBe(400);
    expect(errorString(wrong)).toMatch(/does not support http method 'DELETE'/);
    const unknown = await raw(h.baseUrl, 'GET', '/hosts/frobnicate', { token: h.token });
    expect(unknown.status).toBe(404);
    expect(typeof JSON.parse(unknown.text)).toBe('string');
  });

  it('needs a bearer token on every operation but login and resetpassword', async () => {
    for (const auth of [undefined, 'Bearer nope', 'Basic YWRtaW46eA==']) {
      const r = await raw(h.baseUrl, 'GET', '/hosts/list', auth ? { headers: { authorization: auth } } : {});
      expect(r.status).toBe(401);
      expect(typeof errorString(r)).toBe('string');
    }
    expect((await raw(h.baseUrl, 'POST', '/resetpassword', { body: '{"Username":"nobody","Email":"x@example.com"}' })).status).toBe(200);
  });

  it('refuses malformed JSON and non-JSON content types with 400 strings', async () => {
    const bad = await raw(h.baseUrl, 'POST', '/hosts/create', { token: h.token, body: '{"Name": "x",' });
    expect(bad.status).toBe(400);
    expect(errorString(bad)).toMatch(/not valid JSON/);
    const xml = await raw(h.baseUrl, 'POST', '/hosts/create', { token: h.token, body: '<Name>x</Name>', headers: { 'content-type': 'application/xml' } });
    expect(xml.status).toBe(400);
    expect(errorString(xml)).toMatch(/Unsupported content type/);
    const array = await raw(h.baseUrl, 'POST', '/hosts/create', { token: h.token, body: '["x"]' });
    expect(array.status).toBe(400);
    expect(errorString(array)).toMatch(/body: expected an object, got an array/);
  });

  it('accepts application/json as well as json-patch+json, with property names in any case', async () => {
    const r = await raw(h.baseUrl, 'POST', '/hosts/create', {
      token: h.token,
      body: JSON.stringify({ nAmE: 'proto-host', iqn: 'iqn.2024-01.com.example:proto' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(r.status).toBe(200);
    const list = await raw(h.baseUrl, 'GET', '/hosts/list?NAME=proto-host', { token: h.token });
    expect(JSON.parse(list.text)).toMatchObject({ Data: [{ Name: 'proto-host', Iqn: 'iqn.2024-01.com.example:proto' }] });
  });

  it('names the field when a value has the wrong type', async () => {
    const body = await raw(h.baseUrl, 'POST', '/templates/volumes/create', { token: h.token, body: '{"Application":"Database","Volume":"v","CapacityInBytes":"lots"}' });
    expect(body.status).toBe(400);
    expect(errorString(body)).toMatch(/CapacityInBytes: expected an integer/);
    const query = await raw(h.baseUrl, 'GET', '/monitoring/top/volumes?limit=ten', { token: h.token });
    expect(query.status).toBe(400);
    expect(errorString(query)).toMatch(/'limit'/);
    const bool = await raw(h.baseUrl, 'GET', '/hosts/list?wwn=maybe', { token: h.token });
    expect(errorString(bool)).toMatch(/'wwn'/);
    const wrongString = await raw(h.baseUrl, 'POST', '/hosts/create', { token: h.token, body: '{"Name":42}' });
    expect(errorString(wrongString)).toMatch(/Name: expected a string/);
  });

  it('takes array query parameters as repeated keys', async () => {
    const t = encodeURIComponent;
    await h.call('POST /hosts/create', { body: { Name: 'wwn-host', Wwns: ['10:00:00:00:c9:00:00:01', '10:00:00:00:c9:00:00:02', '10000000c9000003'] } });
    const r = await raw(h.baseUrl, 'DELETE', `/hosts/wwn/delete?name=wwn-host&wwns=${t('10:00:00:00:c9:00:00:01')}&WWNS=${t('10000000c9000003')}`, { token: h.token });
    expect(r.status).toBe(200);
    const hosts = await h.call<{ Data: Array<{ Wwns: string[] }> }>('GET /hosts/list', { query: { name: 'wwn-host' } });
    expect(hosts.Data[0]?.Wwns).toEqual(['10:00:00:00:c9:00:00:02']);
  });

  it('refuses bodies over 1 MiB with a 400 string', async () => {
    const big = JSON.stringify({ Name: 'x', Ip: 'y'.repeat(1_100_000) });
    const r = await raw(h.baseUrl, 'POST', '/hosts/create', { token: h.token, body: big });
    expect(r.status).toBe(400);
    expect(errorString(r)).toMatch(/too large/);
    expect((await raw(h.baseUrl, 'GET', '/hosts/list', { token: h.token })).status).toBe(200);
  });

  it('answers malformed HTTP with 400, never 5xx', async () => {
    const { connect } = await import('node:net');
    const url = new URL(h.baseUrl);
    const reply = await new Promise<string>((resolve, reject) => {
      const s = connect(Number(url.port), url.hostname, () => s.write(`GET /hosts/list HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
      let data = '';
      s.on('data', (d) => (data += d.toString()));
      s.on('close', () => resolve(data));
      s.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
  });
});
