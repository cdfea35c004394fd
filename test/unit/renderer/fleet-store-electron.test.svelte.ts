import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { EVENT_PREFIX, FIRST_READS, IPC_PREFIX } from '../../../app/ipc/channels.js';
import { fromTransport, setApi, startFirstReads } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';

// The Electron path end to end in the page: the preload's transport over a mocked `electron` (the
// runtime binary cannot run on these machines), the window's API over it, the fleet store.
vi.mock('electron', () => ({ contextBridge: { exposeInMainWorld: () => undefined }, ipcRenderer: {} }));
const { buildApi } = await import('../../../main/electron/preload.js');

const envelope = (value: unknown): string => JSON.stringify({ ok: true, value });
const status = (system: string, state: string, seq: number) => ({ siteId: 's', system, state, seq });

/**
 * A window whose preload sent the first reads at document start; main's `fleet:status` answer is
 * held until `answer` hands it the snapshot main read then.
 */
function electronWindow() {
  const page = new EventEmitter();
  let answer!: (systems: unknown[]) => void;
  const snapshot = new Promise<string>((resolve) => (answer = (systems) => resolve(envelope([{ siteId: 's', systems }]))));
  const values: Record<string, unknown> = { 'app:info': { version: '1', simulated: false, keychain: 'memory' }, 'sites:list': [], 'health:briefs': { seq: 0, systems: [] } };
  const renderer = {
    invoke: async (channel: string) => (channel === `${IPC_PREFIX}fleet:status` ? snapshot : envelope(values[channel.slice(IPC_PREFIX.length)])),
    on: (channel: string, l: (...a: unknown[]) => void) => page.on(channel, l),
    removeListener: (channel: string, l: (...a: unknown[]) => void) => page.removeListener(channel, l),
  };
  const transport = buildApi(renderer as never, FIRST_READS);
  const send = (payload: unknown): void => void page.emit(`${EVENT_PREFIX}fleet:status`, {}, payload);
  return { transport, send, answer };
}

describe('the fleet store in the Electron window: each system’s newest status whatever the order of arrival', () => {
  it('a status the preload kept is not overwritten by main’s early answer read before it and arriving after the page listens', async () => {
    const win = electronWindow();
    // Main answered `fleet:status` (x stale as of 5), then x's refresh ended (8), before the page listened.
    win.send(status('x', 'ok', 8));
    setApi(fromTransport(win.transport));
    startFirstReads();
    const fleet = new FleetStore({ eventBatchMs: 0 });
    const stop = fleet.listen();
    const loading = fleet.load();
    await vi.waitFor(() => expect(fleet.status('s', 'x')?.state).toBe('ok'));
    // The answer comes late (main busy, > 100 ms after the page listened).
    win.answer([status('x', 'stale', 5), status('y', 'stale', 3)]);
    await loading;
    expect(fleet.systems.map((s) => `${s.system}:${s.status.state}:${s.status.seq}`)).toEqual(['x:ok:8', 'y:stale:3']);
    // Live statuses go on as before.
    win.send(status('y', 'refreshing', 9));
    expect(fleet.status('s', 'y')?.state).toBe('refreshing');
    stop();
  });

  it('a snapshot newer than the status the preload kept replaces it', async () => {
    const win = electronWindow();
    win.send(status('x', 'refreshing', 4));
    setApi(fromTransport(win.transport));
    startFirstReads();
    const fleet = new FleetStore({ eventBatchMs: 0 });
    const stop = fleet.listen();
    const loading = fleet.load();
    await vi.waitFor(() => expect(fleet.status('s', 'x')?.state).toBe('refreshing'));
    win.answer([status('x', 'ok', 6)]);
    await loading;
    expect(fleet.status('s', 'x')).toMatchObject({ state: 'ok', seq: 6 });
    stop();
  });
});
