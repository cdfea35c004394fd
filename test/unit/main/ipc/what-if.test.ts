import { describe, expect, it } from 'vitest';
import type { Site } from '../../../../app/domain/site.js';
import { createHandlers, dispatch, type HandlerContext, type WhatIf } from '../../../../main/ipc/handlers.js';

const real = { id: 'real', name: 'paris' } as Site;
const simulated = { id: 'sim', name: 'demo-a' } as Site;

/** The handlers as a window has them: `whatIf` only in a `--demo` window. */
function handlers(whatIf?: WhatIf) {
  const refreshed: unknown[] = [];
  const ctx = {
    sites: { get: (ref: string) => [real, simulated].find((s) => s.id === ref || s.name === ref), list: () => [real, simulated] },
    fleet: { refresh: async (o: unknown) => (refreshed.push(o), []) },
    simulatedSiteIds: new Set([simulated.id]),
    version: 'test',
    keychain: 'memory',
    ...(whatIf ? { whatIf } : {}),
  } as unknown as HandlerContext;
  return { hs: createHandlers(ctx), refreshed };
}

describe('demo:whatif', () => {
  it('is refused in a window that is not the demo, whatever it names', async () => {
    const { hs, refreshed } = handlers();
    for (const request of [{ action: 'fail-drive', site: 'demo-a', system: 'krypton-01' }, { action: 'stop-site', site: 'paris' }]) {
      expect(await dispatch(hs, 'demo:whatif', request)).toMatchObject({ ok: false, error: { code: 'not-found', message: expect.stringMatching(/--demo/) } });
    }
    expect(refreshed).toEqual([]);
    expect(await dispatch(hs, 'app:info', {})).toMatchObject({ ok: true, value: { simulated: true } });
    expect(await dispatch(hs, 'app:info', {})).not.toMatchObject({ value: { demo: true } });
  });

  it('in the demo, changes simulated sites only, and refreshes what it touched', async () => {
    const asked: unknown[] = [];
    const { hs, refreshed } = handlers(async (r) => (asked.push(r), 'done (simulated).'));
    expect(await dispatch(hs, 'app:info', {})).toMatchObject({ ok: true, value: { demo: true } });
    expect(await dispatch(hs, 'demo:whatif', { action: 'stop-site', site: 'paris' })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/not simulated/) } });
    expect(await dispatch(hs, 'demo:whatif', { action: 'fill-pool', site: 'demo-a' })).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(await dispatch(hs, 'demo:whatif', { action: 'unplug-everything', site: 'demo-a' })).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(asked).toEqual([]);
    expect(await dispatch(hs, 'demo:whatif', { action: 'fail-drive', site: 'demo-a', system: 'krypton-01' })).toEqual({ ok: true, value: { message: 'done (simulated).' } });
    expect(asked).toEqual([{ action: 'fail-drive', siteId: 'sim', system: 'krypton-01' }]);
    expect(refreshed).toEqual([{ siteIds: ['sim'], systems: ['krypton-01'], force: true }]);
  });
});
