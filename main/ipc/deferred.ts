import { CHANNEL_NAMES } from '../../app/ipc/channels.js';
import type { Handlers } from './handlers.js';

/**
 * Handlers that answer once `ready` gives the real ones: a shell serves its page while main's core
 * still loads and opens, and a call the page makes meanwhile waits for it (then is answered, or
 * refused with the reason the core could not open). Light to load: channel names and types only.
 */
export function deferredHandlers(ready: Promise<Handlers>): Handlers {
  const calls = CHANNEL_NAMES.map((channel) => [channel, async (request: unknown) => ((await ready)[channel] as (r: unknown) => Promise<unknown>)(request)]);
  return Object.fromEntries(calls) as Handlers;
}
