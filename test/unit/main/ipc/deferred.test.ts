import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES } from '../../../../app/ipc/channels.js';
import { StoreError } from '../../../../main/store/store-error.js';
import { deferredHandlers } from '../../../../main/ipc/deferred.js';
import { dispatch, type Handlers } from '../../../../main/ipc/handlers.js';

/** Handlers that answer each call with its channel and request. */
const echo = Object.fromEntries(CHANNEL_NAMES.map((c) => [c, async (r: unknown) => ({ channel: c, request: r })])) as unknown as Handlers;

describe('deferredHandlers: a shell serving its page while main’s core opens', () => {
  it('holds a call made before the core is open, then answers it with the core’s handler', async () => {
    let open: (h: Handlers) => void = () => undefined;
    const handlers = deferredHandlers(new Promise<Handlers>((resolve) => (open = resolve)));
    expect(Object.keys(handlers).sort()).toEqual([...CHANNEL_NAMES].sort());
    let answered = false;
    const call = dispatch(handlers, 'fleet:status', { site: 'paris' }).then((r) => ((answered = true), r));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(answered).toBe(false);
    open(echo);
    expect(await call).toEqual({ ok: true, value: { channel: 'fleet:status', request: { site: 'paris' } } });
    // Once open, every channel goes straight to the core's handler.
    expect(await dispatch(handlers, 'sites:list', {})).toEqual({ ok: true, value: { channel: 'sites:list', request: {} } });
  });

  it('refuses every call with the reason the core could not open', async () => {
    const failed = Promise.reject(new StoreError('/data/fleetdeck.db (the offline cache) cannot be opened: disk full', '/data/fleetdeck.db', 'full'));
    failed.catch(() => undefined);
    const handlers = deferredHandlers(failed);
    for (const channel of ['app:info', 'sites:list'] as const) {
      const r = await dispatch(handlers, channel, {});
      expect(r).toMatchObject({ ok: false, error: { message: expect.stringContaining('disk full') } });
    }
  });
});
