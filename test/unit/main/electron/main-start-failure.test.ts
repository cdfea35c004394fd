import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

/**
 * The Electron entry when the core cannot start (here: a data dir whose database is from a newer
 * Fleetdeck). Launched from a desktop menu there is no terminal, so the reason must be shown.
 */

const work = mkdtempSync(join(tmpdir(), 'fd-electron-fail-'));
const calls: string[] = [];

vi.mock('electron', () => ({
  app: {
    isPackaged: false,
    commandLine: { hasSwitch: () => false },
    setPath: () => undefined,
    requestSingleInstanceLock: () => true,
    enableSandbox: () => undefined,
    whenReady: async () => void calls.push('whenReady'),
    quit: () => void calls.push('quit'),
    exit: (code: number) => void calls.push(`exit ${code}`),
    on: () => undefined,
  },
  BrowserWindow: class {},
  protocol: { registerSchemesAsPrivileged: () => undefined, handle: () => undefined },
  net: { fetch: async () => new Response('') },
  session: { defaultSession: {} },
  shell: { openExternal: vi.fn() },
  Menu: { buildFromTemplate: () => ({}), setApplicationMenu: () => undefined },
  dialog: { showMessageBox: vi.fn(), showErrorBox: (title: string, content: string) => void calls.push(`showErrorBox ${title}: ${content}`) },
  ipcMain: { handle: vi.fn(), removeHandler: vi.fn() },
}));

vi.mock('../../../../main/shells/launch.js', () => ({
  parseLaunchArgs: () => ({ demo: false, dataDir: join(work, 'data'), site: undefined }),
  resolveScope: () => ({ demo: false, instanceKey: 'fleet' }),
  launchCore: async () => {
    throw new Error('fleetdeck.db has schema version 9, written by a newer Fleetdeck than this one (3)');
  },
  rendererDir: () => work,
}));

describe('Electron entry, failed start', () => {
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('shows the reason in an error dialog, then exits 1', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await import('../../../../main/electron/main.js');
    await vi.waitFor(() => expect(calls).toContain('exit 1'));
    stderr.mockRestore();
    const dialog = calls.find((c) => c.startsWith('showErrorBox'));
    expect(dialog).toMatch(/^showErrorBox Fleetdeck could not start: fleetdeck\.db has schema version 9/);
    expect(calls.indexOf(dialog!)).toBeLessThan(calls.indexOf('exit 1'));
  });
});
