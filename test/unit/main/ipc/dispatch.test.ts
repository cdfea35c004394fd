import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES } from '../../../../app/ipc/channels.js';
import { InputError } from '../../../../app/errors.js';
import { LoginRequiredError } from '../../../../main/core/errors.js';
import { ScopeError, dispatch, type Handlers } from '../../../../main/ipc/handlers.js';
import { ReportRequestError } from '../../../../main/reports/service.js';
import { SiteStore } from '../../../../main/store/site-store.js';

const seen: unknown[] = [];
const handlers = Object.fromEntries(CHANNEL_NAMES.map((c) => [c, async (r: unknown) => (seen.push(r), { ok: true })])) as unknown as Handlers;

describe('dispatch', () => {
  it('refuses cyclic and very deep payloads before any schema or handler walks them', async () => {
    const cyclic: Record<string, unknown> = { site: 'a', operation: 'GET /hosts/list' };
    cyclic.query = cyclic;
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = { q: deep };
    for (const payload of [cyclic, { site: 'a', operation: 'GET /hosts/list', query: deep }]) {
      const r = await dispatch(handlers, 'op:call', payload);
      expect(r).toMatchObject({ ok: false, error: { code: 'validation', message: expect.stringMatching(/nested deeper than 64/) } });
    }
    expect(seen).toEqual([]);
  });

  it('passes a well-formed request, parsed by its schema, to its one handler', async () => {
    const r = await dispatch(handlers, 'fleet:status', { site: 'paris', extra: 'dropped' });
    expect(r).toEqual({ ok: true, value: { ok: true } });
    expect(seen.at(-1)).toEqual({ site: 'paris' });
  });

  it('sends a mistake the user can correct with its code, and only a fault of the app as internal', async () => {
    const throwing = (err: unknown) => ({ ...handlers, 'sites:list': async () => Promise.reject(err) }) as Handlers;
    const cases: Array<[unknown, string]> = [
      [new InputError('bad'), 'validation'],
      [new InputError('gone', 'not-found'), 'not-found'],
      [new InputError('twice', 'conflict'), 'conflict'],
      [new ReportRequestError('no report 9'), 'not-found'],
      [new ScopeError('this window is scoped to paris'), 'not-found'],
      [new LoginRequiredError('log in'), 'login-required'],
      [new TypeError("Cannot read properties of undefined (reading 'x')"), 'internal'],
    ];
    for (const [err, code] of cases) expect(await dispatch(throwing(err), 'sites:list', {}), String(err)).toMatchObject({ ok: false, error: { code, message: (err as Error).message } });
  });

  it('codes the site list\'s refusals: a bad value, a duplicate, an unknown site', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-dispatch-'));
    const sites = new SiteStore({ dataDir: dir });
    const add = (name: string, baseUrl: string) => sites.add({ name, baseUrl, username: 'admin' });
    const codeOf = async (p: Promise<unknown>): Promise<unknown> => p.then(() => 'no error', (e: unknown) => dispatch({ ...handlers, 'sites:list': async () => Promise.reject(e) } as Handlers, 'sites:list', {}).then((r) => (r.ok ? 'ok' : r.error.code)));
    await add('paris', 'https://paris.example');
    expect(await codeOf(add('lyon', 'ftp://lyon.example'))).toBe('validation');
    expect(await codeOf(add('Paris', 'https://other.example'))).toBe('conflict');
    expect(await codeOf(sites.remove('nowhere'))).toBe('not-found');
    rmSync(dir, { recursive: true, force: true });
  });
});
