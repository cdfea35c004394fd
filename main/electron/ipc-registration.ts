import { ipcMain as electronIpcMain, type IpcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { CHANNEL_NAMES, EVENT_PREFIX, IPC_PREFIX } from '../../app/ipc/channels.js';
import type { EventName, EventPayload } from '../../app/ipc/contract.js';
import { dispatch, type Handlers } from '../ipc/handlers.js';
import { answerJson } from '../ipc/raw-json.js';

/** The app's own origin: the only frame allowed to call main. */
export const APP_ORIGIN = 'app://fleetdeck';

/**
 * True only for the app's top-level frame loaded from the app's own protocol: a sub-frame, another
 * window's content or any remote page is refused.
 */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame' | 'sender'>): boolean {
  const frame = event.senderFrame;
  if (!frame || frame !== event.sender.mainFrame) return false;
  try {
    const url = new URL(frame.url);
    return `${url.protocol}//${url.host}` === APP_ORIGIN;
  } catch {
    return false;
  }
}

/**
 * Registers exactly one `ipcMain.handle` per contract channel. Each checks the sender, parses the
 * request with its schema (in `dispatch`) and answers the envelope `{ ok, value }` or
 * `{ ok: false, error: { code, message } }` as JSON text, exactly as the browser shell's HTTP body
 * (a cached answer spliced in as stored, not parsed here and cloned).
 * @returns a function removing the handlers.
 */
export function registerIpc(handlers: Handlers, ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'> = electronIpcMain): () => void {
  for (const channel of CHANNEL_NAMES) {
    ipcMain.handle(IPC_PREFIX + channel, async (event, payload: unknown): Promise<string> => {
      if (!isTrustedSender(event)) return answerJson({ ok: false, error: { code: 'forbidden', message: 'this frame may not call Fleetdeck' } });
      return answerJson(await dispatch(handlers, channel, payload));
    });
  }
  return () => {
    for (const channel of CHANNEL_NAMES) ipcMain.removeHandler(IPC_PREFIX + channel);
  };
}

/** Pushes one event to a window's renderer. */
export function sendEvent<E extends EventName>(contents: Pick<WebContents, 'send' | 'isDestroyed'>, event: E, payload: EventPayload<E>): void {
  if (!contents.isDestroyed()) contents.send(EVENT_PREFIX + event, payload);
}
