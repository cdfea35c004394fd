import { describe, expect, it, vi } from 'vitest';
import { appMenuTemplate } from '../../../../main/electron/menu.js';

/** Every role and label of a menu template, submenus included. */
function items(template: ReturnType<typeof appMenuTemplate>): Array<{ role?: string; label?: string; click?: () => void }> {
  return template.flatMap((m) => [m, ...(Array.isArray(m.submenu) ? m.submenu : [])]) as Array<{ role?: string; label?: string; click?: () => void }>;
}

describe('the application menu', () => {
  it('packaged: no developer tools, no Reload or Force Reload, Help opens our documentation', () => {
    const openHelp = vi.fn();
    const all = items(appMenuTemplate({ platform: 'linux', appName: 'Fleetdeck', devTools: false, openHelp }));
    const roles = all.map((i) => i.role?.toLowerCase());
    for (const role of ['toggledevtools', 'reload', 'forcereload']) expect(roles).not.toContain(role);
    expect(roles).toEqual(expect.arrayContaining(['quit', 'copy', 'paste', 'selectall', 'windowmenu', 'help']));
    const help = all.find((i) => i.label === 'Fleetdeck documentation');
    help?.click?.();
    expect(openHelp).toHaveBeenCalledTimes(1);
    // Electron's default Help menu links to electronjs.org: nothing here names it.
    expect(JSON.stringify(all)).not.toMatch(/electron/i);
  });

  it('development: the developer tools are in View', () => {
    const roles = items(appMenuTemplate({ platform: 'linux', appName: 'Fleetdeck', devTools: true, openHelp: vi.fn() })).map((i) => i.role);
    expect(roles).toContain('toggleDevTools');
    expect(roles).not.toContain('reload');
  });

  it("macOS: the application menu comes first, and File closes the window rather than quitting", () => {
    const template = appMenuTemplate({ platform: 'darwin', appName: 'Fleetdeck', devTools: false, openHelp: vi.fn() });
    expect(template[0]!.label).toBe('Fleetdeck');
    expect(items([template[0]!]).map((i) => i.role)).toEqual(expect.arrayContaining(['about', 'hide', 'quit']));
    expect(items([template[1]!]).map((i) => i.role)).toEqual([undefined, 'close']);
  });
});
