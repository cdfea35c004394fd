import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CHANNEL_NAMES, EVENT_NAMES, EVENT_PREFIX, IPC_PREFIX } from '../../app/ipc/channels.js';
import type { FleetdeckTransport, IpcEnvelope } from '../../app/ipc/contract.js';

/**
 * The preload: exposes one frozen transport built from the contract's channel names and nothing
 * else; each call answers main's envelope as JSON text, as the browser shell does over HTTP.
 * Bundled on its own (sandboxed preloads cannot load modules), see the preload mode of vite.config.ts.
 */
export function buildApi(renderer: Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>): Readonly<FleetdeckTransport> {
  const channels = new Set<string>(CHANNEL_NAMES);
  const events = new Set<string>(EVENT_NAMES);
  return Object.freeze({
    async call(channel: string, request: unknown): Promise<string> {
      if (!channels.has(channel)) {
        const refused: IpcEnvelope = { ok: false, error: { code: 'unknown-channel', message: `unknown channel "${String(channel).slice(0, 80)}"` } };
        return JSON.stringify(refused);
      }
      const answer: unknown = await renderer.invoke(IPC_PREFIX + channel, request);
      if (typeof answer !== 'string') throw new Error(`main answered ${channel} with ${typeof answer}, not the envelope text`);
      return answer;
    },
    on(event: string, listener: (payload: unknown) => void): () => void {
      if (!events.has(event)) throw new Error(`unknown event "${String(event)}"`);
      // The Electron event object never reaches the page: only the payload.
      const wrapped = (_e: IpcRendererEvent, payload: unknown): void => listener(payload);
      renderer.on(EVENT_PREFIX + event, wrapped);
      return () => {
        renderer.removeListener(EVENT_PREFIX + event, wrapped);
      };
    },
  });
}

if (process.contextIsolated) contextBridge.exposeInMainWorld('fleetdeck', buildApi(ipcRenderer));
