import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App, BrowserWindow } from 'electron';
import { PRINT_WORKER_FLAG } from '../reports/printer.js';
import { electronPrintToPdf } from './pdf.js';

/** The folder given with `--fleetdeck-print-pdf=DIR`, when the runtime was started as a print worker. */
export function printWorkerDir(argv: readonly string[]): string | undefined {
  const arg = argv.find((a) => a.startsWith(`${PRINT_WORKER_FLAG}=`));
  return arg?.slice(PRINT_WORKER_FLAG.length + 1) || undefined;
}

/**
 * The app's runtime as the CLI's PDF printer (main/reports/printer.ts, where no system Chromium
 * is found): prints `part-1.html` … `part-N.html` of the folder to `part-N.pdf` beside them in
 * hidden windows, then exits 0; on failure prints the reason to stderr and exits 1. No window is
 * shown, no lock taken; its Chromium profile lives in that folder and goes with it.
 */
export async function runPrintWorker(dir: string, app: Pick<App, 'setPath' | 'enableSandbox' | 'whenReady' | 'exit' | 'on'>, Window: typeof BrowserWindow): Promise<void> {
  try {
    app.setPath('userData', join(dir, 'profile'));
    // Electron quits by default once its last window closes: here that is each print window, before
    // the PDFs are written. The worker exits by itself when done.
    app.on('window-all-closed', () => undefined);
    app.enableSandbox();
    await app.whenReady();
    const count = readdirSync(dir).filter((n) => /^part-\d+\.html$/.test(n)).length;
    if (count === 0) throw new Error(`no part-N.html to print in ${dir}`);
    const documents = await Promise.all(Array.from({ length: count }, (_x, i) => readFile(join(dir, `part-${i + 1}.html`), 'utf8')));
    const pdfs = await electronPrintToPdf(Window)(documents);
    await Promise.all(pdfs.map((pdf, i) => writeFile(join(dir, `part-${i + 1}.pdf`), pdf, { mode: 0o600 })));
    app.exit(0);
  } catch (err) {
    process.stderr.write(`fleetdeck: printing the PDF failed: ${err instanceof Error ? err.message : String(err)}\n`);
    app.exit(1);
  }
}
