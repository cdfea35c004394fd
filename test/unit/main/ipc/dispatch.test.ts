import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES } from '../../../../app/ipc/channels.js';
import { dispatch, type Handlers } from '../../../../main/ipc/handlers.js';

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
});
