import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumPrintToPdf, PDF_TIMEOUT_MS, printStepTimeoutMs, type PrintToPdf } from './pdf.js';

/** The flag that starts the app's runtime as a PDF printer of the parts in a folder (main/electron/main.ts). */
export const PRINT_WORKER_FLAG = '--fleetdeck-print-pdf';

/** A PDF printer and what it is, in words the CLI prints ("PDF printed with …"). */
export interface PdfPrinter {
  print: PrintToPdf;
  description: string;
}

/** Where a system Chromium (or Chrome) is looked for, in order, per platform. */
export function systemChromiumPaths(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  switch (platform) {
    case 'linux':
      return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'];
    case 'darwin':
      return ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];
    case 'win32':
      return [env.LOCALAPPDATA, env.ProgramFiles, env['ProgramFiles(x86)']].filter((d): d is string => Boolean(d)).map((d) => `${d}\\Google\\Chrome\\Application\\chrome.exe`);
    default:
      return [];
  }
}

export interface PrinterSources {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  exists?: (path: string) => boolean;
  /**
   * The Electron runtime this process runs on, when it does (the installed `fleetdeck` command
   * runs the CLI on it as Node): its Chromium prints when no other is found.
   */
  electron?: { binary: string; version: string; appPath?: string | undefined } | undefined;
}

/**
 * The PDF printer of the CLI and the browser shell: `FLEETDECK_CHROMIUM` (a path, or `app` for
 * the app's own Chromium), else a system Chromium, else the Chromium of the Electron runtime this
 * process runs on, through a hidden-window print worker (Windows, macOS, a bare Linux desk).
 * Without any, a printer that fails saying where it looked.
 */
export function choosePdfPrinter(sources: PrinterSources = {}): PdfPrinter {
  const env = sources.env ?? process.env;
  const exists = sources.exists ?? existsSync;
  const electron = 'electron' in sources ? sources.electron : currentElectron();
  const forced = env.FLEETDECK_CHROMIUM?.trim();
  const app = (): PdfPrinter | undefined =>
    electron && { print: appChromiumPrintToPdf(electron.binary, electron.appPath), description: `Fleetdeck's own Chromium (Electron ${electron.version})` };
  if (forced === 'app') {
    const own = app();
    if (own) return own;
    return failing('FLEETDECK_CHROMIUM=app asks for the app\'s own Chromium, but this is not running on the app\'s runtime (use the installed "fleetdeck" command)');
  }
  if (forced) return { print: chromiumPrintToPdf({ executablePath: forced }), description: `Chromium at ${forced} (FLEETDECK_CHROMIUM)` };
  const paths = systemChromiumPaths(sources.platform ?? process.platform, env);
  const found = paths.find((p) => exists(p));
  if (found) return { print: chromiumPrintToPdf({ executablePath: found }), description: `Chromium at ${found}` };
  return app() ?? failing(`no Chromium to print the PDF with (looked for ${paths.join(', ') || 'none on this platform'}): install Chromium, set FLEETDECK_CHROMIUM to one, or use the installed "fleetdeck" command, which prints with the app's own`);
}

function failing(message: string): PdfPrinter {
  return { print: () => Promise.reject(new Error(message)), description: 'no PDF printer' };
}

/** The Electron runtime under this process (run as Node), with the app folder when not packaged. */
function currentElectron(): PrinterSources['electron'] {
  const version = process.versions.electron;
  if (!version) return undefined;
  const here = fileURLToPath(import.meta.url);
  // Packaged, the runtime always runs its own app.asar; from a checkout it is told the app folder.
  const packaged = here.includes(`${sep}app.asar${sep}`);
  return { binary: process.execPath, version, appPath: packaged ? undefined : join(dirname(here), '..', '..', '..') };
}

/**
 * Print-to-PDF on the app's own Chromium: the parts are written to a private temporary folder and
 * the Electron runtime is started as a print worker on it (`--fleetdeck-print-pdf=DIR`), which
 * prints each `part-N.html` to `part-N.pdf` in hidden windows and exits. Fails with the worker's
 * own message, or after the timeout per part.
 */
export function appChromiumPrintToPdf(binary: string, appPath?: string, timeoutMs = PDF_TIMEOUT_MS): PrintToPdf {
  return async (documents) => {
    const dir = await mkdtemp(join(tmpdir(), 'fleetdeck-print-'));
    try {
      await Promise.all(documents.map((html, i) => writeFile(join(dir, `part-${i + 1}.html`), html, { mode: 0o600 })));
      await runWorker(binary, [...(appPath ? [appPath] : []), `${PRINT_WORKER_FLAG}=${dir}`], documents.reduce((sum, html) => sum + printStepTimeoutMs(timeoutMs, html.length), timeoutMs));
      return await Promise.all(documents.map((_html, i) => readFile(join(dir, `part-${i + 1}.pdf`))));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}

function runWorker(binary: string, args: readonly string[], timeoutMs: number): Promise<void> {
  // Not as Node: the runtime must start as the app to have windows to print with.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the app's Chromium did not finish printing the PDF within ${Math.ceil(timeoutMs / 1000)} s`));
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot start the app's runtime at ${binary} to print the PDF: ${err.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`the app's Chromium failed to print the PDF (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').at(-1) ?? ''}`));
    });
  });
}
