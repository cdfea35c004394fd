import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CHANNEL_NAMES, EVENT_NAMES, EVENT_PREFIX, IPC_PREFIX } from '../../app/ipc/channels.js';

/**
 * The preload: exposes one frozen API built from the contract's channel names and nothing else.
 * Bundled on its own (sandboxed preloads cannot load modules), see vite.preload.config.ts.
 */
export function buildApi(renderer: Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>) {
  const channels = new Set<string>(CHANNEL_NAMES);
  const events = new Set<string>(EVENT_NAMES);
  return Object.freeze({
    invoke(channel: string, request: unknown): Promise<unknown> {
      if (!channels.has(channel)) return Promise.reject(new Error(JSON.stringify({ code: 'unknown-channel', message: `unknown channel "${String(channel)}"` })));
      return renderer.invoke(IPC_PREFIX + channel, request);
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
