import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserWindow, BrowserWindowConstructorOptions, RenderProcessGoneDetails } from 'electron';
import { PDF_TIMEOUT_MS, printStepTimeoutMs, type PrintToPdf } from '../reports/pdf.js';

type PrintWindow = Pick<BrowserWindow, 'loadFile' | 'destroy' | 'isDestroyed'> & {
  webContents: Pick<BrowserWindow['webContents'], 'printToPDF' | 'once'>;
};
type WindowCtor = new (options: BrowserWindowConstructorOptions) => PrintWindow;

export interface ElectronPrintOptions {
  /** How long one part may take to load and print, ms (the CLI's printer has the same). */
  timeoutMs?: number;
  /** Where the parts are written for the print windows to load (default: the OS temp folder). */
  tmpDir?: string;
}

/**
 * Print-to-PDF through Electron's own Chromium: per document, a hidden, sandboxed window with
 * JavaScript off renders the self-contained HTML, then `webContents.printToPDF`; the documents
 * print at once, each window in its own renderer process. Each part is loaded from a file in a
 * private temporary folder, not a `data:` URL (Chromium refuses URLs over 2 MiB, which an audit
 * pack of about 70 systems exceeds). A part that takes longer than the timeout, or whose renderer
 * crashes, fails the print with a message saying so. Every window and the folder are always
 * removed, whatever happens.
 */
export function electronPrintToPdf(Window: WindowCtor, options: ElectronPrintOptions = {}): PrintToPdf {
  const timeoutMs = options.timeoutMs ?? PDF_TIMEOUT_MS;
  return async (documents) => {
    // mkdtemp makes the folder 0700: the parts are readable by this user only.
    const dir = await mkdtemp(join(options.tmpDir ?? tmpdir(), 'fleetdeck-print-'));
    try {
      return await Promise.all(documents.map((html, i) => printOne(Window, html, join(dir, `part-${i + 1}.html`), printStepTimeoutMs(timeoutMs, html.length))));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}

async function printOne(Window: WindowCtor, html: string, file: string, timeoutMs: number): Promise<Buffer> {
  await writeFile(file, html, { mode: 0o600 });
  const win = new Window({
    show: false,
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false, webSecurity: true },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const failed = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`printing a part of the PDF took longer than ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      win.webContents.once('render-process-gone', (_event: unknown, details: RenderProcessGoneDetails) => reject(new Error(`the renderer printing a part of the PDF stopped (${details.reason})`)));
    });
    const printed = (async () => {
      await win.loadFile(file);
      return Buffer.from(await win.webContents.printToPDF({ landscape: true, printBackground: true, preferCSSPageSize: true }));
    })();
    return await Promise.race([printed, failed]);
  } finally {
    clearTimeout(timer);
    if (!win.isDestroyed()) win.destroy();
  }
}
