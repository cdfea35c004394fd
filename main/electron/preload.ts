import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CHANNEL_NAMES, EVENT_NAMES, EVENT_PREFIX, FIRST_READS, IPC_PREFIX } from '../../app/ipc/channels.js';
import type { FleetdeckTransport, IpcEnvelope } from '../../app/ipc/contract.js';

/**
 * The preload: exposes one frozen transport built from the contract's channel names and nothing
 * else; each call answers main's envelope as JSON text, as the browser shell does over HTTP.
 * Bundled on its own (sandboxed preloads cannot load modules), see the preload mode of vite.config.ts.
 *
 * `early` reads (the window's: {@link FIRST_READS}) are sent as the transport is built, at document
 * start, before the page has fetched its first script through app://; the page's first
 * call of each with an empty request gets that answer, once. An early answer that is not a success
 * (the frame not yet trusted, main not ready) is not handed out: that call asks main again. The
 * system statuses main sends before the page listens are kept (each system's last) for its first
 * status listener.
 */
export function buildApi(renderer: Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>, early: readonly string[] = []): Readonly<FleetdeckTransport> {
  const channels = new Set<string>(CHANNEL_NAMES);
  const events = new Set<string>(EVENT_NAMES);
  const invoke = async (channel: string, request: unknown): Promise<string> => {
    const answer: unknown = await renderer.invoke(IPC_PREFIX + channel, request);
    if (typeof answer !== 'string') throw new Error(`main answered ${channel} with ${typeof answer}, not the envelope text`);
    return answer;
  };
  const sent = new Map<string, Promise<string | undefined>>();
  // The window that sends its first reads early also hears the system statuses main sends from then
  // on, before its page listens (~120 ms later at start): each system's last one is kept
  // and handed to the page's first status listener, so a change sent between main answering
  // `fleet:status` and the page listening is seen at once, not at that system's next change. A status
  // event is the whole status of its system, so its last one is its status now. Main's early answer
  // may reach the page after these (main busy): each status carries main's sequence number (`seq`)
  // and the fleet store keeps the newer of each system's, whatever the order of arrival.
  const heard = new Map<string, unknown>();
  const hear = (_e: IpcRendererEvent, payload: unknown): void => {
    const p = payload as { siteId?: unknown; system?: unknown } | null;
    const key = `${String(p?.siteId)}\u0000${String(p?.system)}`;
    heard.delete(key);
    heard.set(key, payload);
  };
  let hearing = early.includes('fleet:status');
  if (hearing) renderer.on(EVENT_PREFIX + 'fleet:status', hear);
  for (const channel of early.filter((c) => channels.has(c))) {
    sent.set(
      channel,
      invoke(channel, {}).then(
        (text) => (text.startsWith('{"ok":true') ? text : undefined),
        () => undefined,
      ),
    );
  }
  return Object.freeze({
    async call(channel: string, request: unknown): Promise<string> {
      if (!channels.has(channel)) {
        const refused: IpcEnvelope = { ok: false, error: { code: 'unknown-channel', message: `unknown channel "${String(channel).slice(0, 80)}"` } };
        return JSON.stringify(refused);
      }
      const kept = isEmptyRequest(request) ? sent.get(channel) : undefined;
      if (kept) {
        sent.delete(channel);
        const text = await kept;
        if (text !== undefined) return text;
      }
      return invoke(channel, request);
    },
    on(event: string, listener: (payload: unknown) => void): () => void {
      if (!events.has(event)) throw new Error(`unknown event "${String(event)}"`);
      // The Electron event object never reaches the page: only the payload.
      const wrapped = (_e: IpcRendererEvent, payload: unknown): void => listener(payload);
      renderer.on(EVENT_PREFIX + event, wrapped);
      if (event === 'fleet:status' && hearing) {
        // Swapped in the same task, so no status falls between; those heard go first (a microtask
        // runs before the next IPC message's task).
        hearing = false;
        renderer.removeListener(EVENT_PREFIX + event, hear);
        const statuses = [...heard.values()];
        heard.clear();
        queueMicrotask(() => {
          for (const payload of statuses) listener(payload);
        });
      }
      return () => {
        renderer.removeListener(EVENT_PREFIX + event, wrapped);
      };
    },
  });
}

/** `{}`: the first reads' request (a read with filters is another question). */
function isEmptyRequest(request: unknown): boolean {
  return typeof request === 'object' && request !== null && !Array.isArray(request) && Object.keys(request).length === 0;
}

if (process.contextIsolated) contextBridge.exposeInMainWorld('fleetdeck', buildApi(ipcRenderer, FIRST_READS));
