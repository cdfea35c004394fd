import type { Channel, EventName, EventPayload, FleetdeckApi, IpcError, Request, Response } from '../../app/ipc/contract.js';

/** An error returned by main: a stable code and a message without secrets. */
export class IpcCallError extends Error {
  override readonly name = 'IpcCallError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

declare global {
  interface Window {
    /** Exposed by the Electron preload: the frozen API built from the contract. */
    fleetdeck?: FleetdeckApi;
  }
}

/** The header carrying the browser shell's access token. */
export const TOKEN_HEADER = 'x-fleetdeck-token';

/**
 * The browser shell's transport: the same contract over loopback HTTP (calls) and SSE (events).
 * The access token comes from the page URL and is sent on every request.
 */
export function httpApi(base: URL, fetchImpl: typeof fetch = fetch.bind(globalThis)): FleetdeckApi {
  const token = base.searchParams.get('token') ?? '';
  let source: EventSource | undefined;
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  return {
    async invoke<C extends Channel>(channel: C, request: Request<C>): Promise<Response<C>> {
      const res = await fetchImpl(new URL(`/ipc/${channel}`, base), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
        body: JSON.stringify(request),
      });
      const payload = (await res.json().catch(() => ({ ok: false, error: { code: 'protocol', message: `HTTP ${res.status}` } }))) as
        | { ok: true; value: Response<C> }
        | { ok: false; error: IpcError };
      if (!payload.ok) throw new IpcCallError(payload.error.code, payload.error.message);
      return payload.value;
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
      if (!source) {
        source = new EventSource(new URL(`/events?token=${encodeURIComponent(token)}`, base));
      }
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
        source.addEventListener(event, (e) => {
          const data: unknown = JSON.parse((e as MessageEvent<string>).data);
          for (const l of listeners.get(event) ?? []) l(data);
        });
      }
      const l = listener as (payload: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
  };
}

/** Wraps an API so rejections are IpcCallErrors with a code, whatever the transport. */
function normalize(api: FleetdeckApi): FleetdeckApi {
  return {
    invoke: async (channel, request) => {
      try {
        return await api.invoke(channel, request);
      } catch (err) {
        if (err instanceof IpcCallError) throw err;
        const e = err as { code?: unknown; message?: unknown };
        // Electron prefixes rejected invoke messages; main encodes { code, message } as JSON.
        const text = typeof e.message === 'string' ? e.message : String(err);
        const m = /\{"code":.*\}$/.exec(text);
        if (m) {
          const parsed = JSON.parse(m[0]) as IpcError;
          throw new IpcCallError(parsed.code, parsed.message);
        }
        throw new IpcCallError(typeof e.code === 'string' ? e.code : 'internal', text);
      }
    },
    on: (event, listener) => api.on(event, listener),
  };
}

let current: FleetdeckApi | undefined;

/** The API of this window: the preload's in Electron, the HTTP transport in the browser shell. */
export function api(): FleetdeckApi {
  current ??= normalize(window.fleetdeck ?? httpApi(new URL(window.location.href)));
  return current;
}

/** Tests hand the renderer a fake. */
export function setApi(fake: FleetdeckApi): void {
  current = normalize(fake);
}
