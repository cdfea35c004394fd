import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../app/catalog/index.js';
import type { Field, Operation, ValueType } from '../../../app/catalog/index.js';
import { Rng } from '../../../simulator/random.js';
import { harness, raw } from './support.js';
import type { Harness, RawResponse } from './support.js';

const ALLOWED = new Set([200, 400]);

/** A plausible value for a field type (strings that name nothing, numbers that fit). */
function sample(type: ValueType): unknown {
  if (typeof type === 'string') {
    switch (type) {
      case 'string':
        return 'sample';
      case 'integer':
        return 1;
      case 'number':
        return 1.5;
      case 'boolean':
        return true;
      case 'date-time':
        return '2025-01-15T11:00:00';
    }
  }
  if ('array' in type) return [sample(type.array)];
  return Object.fromEntries(type.fields.map((f) => [f.name, sample(f.type)]));
}

function queryString(fields: readonly Field[], value: (f: Field) => unknown): string {
  const params = new URLSearchParams();
  for (const f of fields) {
    const v = value(f);
    for (const item of Array.isArray(v) ? v : [v]) params.append(f.name, String(item));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Checks the answer is 200 or a 400 string (login may also answer 401), and a 200 has the documented shape. */
function checkAnswer(op: Operation, r: RawResponse): void {
  const label = `${op.key} -> ${r.status} ${r.text.slice(0, 120)}`;
  const allowed = op.key === 'POST /login' ? new Set([200, 400, 401]) : ALLOWED;
  expect(allowed.has(r.status), label).toBe(true);
  if (r.status !== 200) {
    expect(typeof JSON.parse(r.text), label).toBe('string');
    return;
  }
  if (op.response.kind === 'empty') {
    expect(r.text, label).toBe('');
    return;
  }
  const v: unknown = JSON.parse(r.text);
  if (op.response.kind === 'string') expect(typeof v, label).toBe('string');
  if (op.response.kind === 'list') expect(Array.isArray((v as { Data?: unknown }).Data), label).toBe(true);
  if (op.response.kind === 'object') expect(typeof v === 'object' && v !== null && !Array.isArray(v), label).toBe(true);
}

describe('every catalog operation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ sites: 1, systems: 2 });
  });
  afterAll(async () => h.close());

  it('answers an empty request with 200 or a 400 string, never 404/405/5xx', async () => {
    for (const op of OPERATIONS) {
      const r = await raw(h.baseUrl, op.method, op.path, { token: h.token, ...(op.hasBody ? { body: '{}' } : {}) });
      checkAnswer(op, r);
    }
  });

  it('answers a request with every parameter filled in with 200 or a 400 string', async () => {
    for (const op of OPERATIONS) {
      if (op.key === 'PUT /settings/authentication') continue; // would switch the harness site to two-factor logins
      const qs = queryString(op.query, (f) => sample(f.type));
      const body = op.hasBody ? JSON.stringify(Object.fromEntries(op.body.map((f) => [f.name, sample(f.type)]))) : undefined;
      const headers = Object.fromEntries(op.headers.map((f) => [f.name, String(sample(f.type))]));
      const r = await raw(h.baseUrl, op.method, `${op.path}${qs}`, { token: h.token, headers, ...(body !== undefined ? { body } : {}) });
      checkAnswer(op, r);
    }
  });

  it('refuses a wrongly typed value of every typed field with a 400 naming the field', async () => {
    let checked = 0;
    for (const op of OPERATIONS) {
      for (const f of op.query) {
        if (f.type === 'string' || (typeof f.type === 'object' && 'array' in f.type && f.type.array === 'string')) continue;
        const r = await raw(h.baseUrl, op.method, `${op.path}?${f.name}=%E2%9C%97not-a-value`, { token: h.token, ...(op.hasBody ? { body: '{}' } : {}) });
        expect(r.status, `${op.key} ${f.name}`).toBe(400);
        expect(JSON.parse(r.text), `${op.key} ${f.name}`).toContain(f.name);
        checked++;
      }
      for (const f of op.body) {
        const wrong = f.type === 'string' ? 12 : typeof f.type === 'object' ? 'not-an-array-or-object' : 'not-a-value';
        const r = await raw(h.baseUrl, op.method, op.path, { token: h.token, body: JSON.stringify({ [f.name]: wrong }) });
        expect(r.status, `${op.key} ${f.name}`).toBe(op.key === 'POST /login' && r.status === 401 ? 401 : 400);
        if (r.status === 400) expect(JSON.parse(r.text), `${op.key} ${f.name}`).toContain(f.name);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('survives malformed bodies and queries without a 5xx', async () => {
    const rng = new Rng(20250115);
    const bodies = [
      '', 'null', '[]', '"text"', '42', 'true', '{', '{"a":', '{{}}', '\u0000\u0001', '{"Name":null}', '{"__proto__":{"x":1}}',
      '['.repeat(5000) + ']'.repeat(5000), `{"Name":"${'é'.repeat(3000)}"}`, '{"Volumes":[1,[2],{"x":3}]}', '{"Tiers":[]}',
      '{"CapacityInBytes":1e400}', '{"CapacityInBytes":-1}', '{"Port":99999999999999999999}', '\uFEFF{}',
    ];
    const queries = ['?%', '?%zz=1', '?a=1&a=2&a=3', '?name=%00', '?top=-5', '?limit=0', '?fromDate=2025-13-45T99:99:99', '?interval=0', `?search=${'x'.repeat(5000)}`, '?ids=1&ids=x'];
    const ops = OPERATIONS.filter((o) => o.key !== 'PUT /settings/authentication');
    for (let i = 0; i < 400; i++) {
      const op = rng.pick(ops);
      const body = rng.pick(bodies);
      const q = rng.pick(queries);
      const contentType = rng.pick(['application/json-patch+json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', '']);
      const r = await raw(h.baseUrl, op.method, `${rng.chance(0.3) ? op.path.toUpperCase() : op.path}${q}`, {
        token: h.token,
        body,
        headers: contentType ? { 'content-type': contentType } : {},
      });
      expect(r.status, `${op.key}${q} body=${body.slice(0, 40)}`).toBeLessThan(500);
      expect([200, 400, 401], `${op.key}${q}`).toContain(r.status);
    }
    for (const method of ['HEAD', 'OPTIONS', 'PATCH', 'TRACE']) {
      const r = await raw(h.baseUrl, method, '/hosts/list', { token: h.token });
      expect(r.status, method).toBe(400);
    }
    expect((await raw(h.baseUrl, 'GET', '/systems/list', { token: h.token })).status).toBe(200);
  });
});
