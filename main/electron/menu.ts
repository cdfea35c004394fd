import type { MenuItemConstructorOptions } from 'electron';

export interface AppMenuOptions {
  platform: NodeJS.Platform;
  /** Shown in macOS's application menu. */
  appName: string;
  /** Whether the View menu offers the developer tools: only in an unpackaged (development) run. */
  devTools: boolean;
  /** Opens the app's documentation in the system browser. */
  openHelp: () => void;
}

/**
 * The app's own menu, replacing Electron's default: no Reload or Force Reload (a reload drops what
 * the window holds, such as a form being filled in, and the core keeps running anyway), developer
 * tools only in development, and Help pointing at Fleetdeck's documentation rather than Electron's.
 * Edit keeps the clipboard roles, which on macOS exist only through the menu.
 */
export function appMenuTemplate(o: AppMenuOptions): MenuItemConstructorOptions[] {
  const mac = o.platform === 'darwin';
  const view: MenuItemConstructorOptions[] = [{ role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }];
  if (o.devTools) view.push({ type: 'separator' }, { role: 'toggleDevTools' });
  return [
    ...(mac
      ? [{ label: o.appName, submenu: [{ role: 'about' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }] } satisfies MenuItemConstructorOptions]
      : []),
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
    { label: 'Edit', submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }] },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: 'Fleetdeck documentation', click: () => o.openHelp() }] },
  ];
}
