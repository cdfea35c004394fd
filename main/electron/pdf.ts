import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import type { PrintToPdf } from '../reports/pdf.js';

type WindowCtor = new (options: BrowserWindowConstructorOptions) => Pick<BrowserWindow, 'loadURL' | 'destroy' | 'isDestroyed'> & {
  webContents: Pick<BrowserWindow['webContents'], 'printToPDF'>;
};

/**
 * Print-to-PDF through Electron's own Chromium: per document, a hidden, sandboxed window with
 * JavaScript off renders the self-contained HTML, then `webContents.printToPDF`; the documents
 * print at once, each window in its own renderer process. Every window is always destroyed,
 * whatever happens.
 */
export function electronPrintToPdf(Window: WindowCtor): PrintToPdf {
  return (documents) => Promise.all(documents.map((html) => printOne(Window, html)));
}

async function printOne(Window: WindowCtor, html: string): Promise<Buffer> {
  const win = new Window({
    show: false,
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false, webSecurity: true },
  });
  try {
    await win.loadURL(`data:text/html;charset=utf-8;base64,${Buffer.from(html, 'utf8').toString('base64')}`);
    return Buffer.from(await win.webContents.printToPDF({ landscape: true, printBackground: true, preferCSSPageSize: true }));
  } finally {
    if (!win.isDestroyed()) win.destroy();
  }
}
