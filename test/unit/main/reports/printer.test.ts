import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appChromiumPrintToPdf, choosePdfPrinter, PRINT_WORKER_FLAG, systemChromiumPaths } from '../../../../main/reports/printer.js';

const electron = { binary: '/opt/Fleetdeck/fleetdeck', version: '45.5.0' };

describe('choosePdfPrinter', () => {
  it('prints with a system Chromium when there is one', () => {
    const p = choosePdfPrinter({ env: {}, platform: 'linux', exists: (f) => f === '/usr/bin/chromium-browser', electron });
    expect(p.description).toBe('Chromium at /usr/bin/chromium-browser');
  });

  it("prints with the app's own Chromium where no system Chromium is found (Windows, macOS, a bare Linux desk)", () => {
    for (const platform of ['win32', 'darwin', 'linux'] as const) {
      const p = choosePdfPrinter({ env: { ProgramFiles: 'C:\\Program Files' }, platform, exists: () => false, electron });
      expect(p.description, platform).toBe("Fleetdeck's own Chromium (Electron 45.5.0)");
    }
  });

  it('FLEETDECK_CHROMIUM names a Chromium, or "app" for the app\'s own', () => {
    expect(choosePdfPrinter({ env: { FLEETDECK_CHROMIUM: '/x/chrome' }, platform: 'linux', exists: () => true, electron }).description).toBe('Chromium at /x/chrome (FLEETDECK_CHROMIUM)');
    expect(choosePdfPrinter({ env: { FLEETDECK_CHROMIUM: 'app' }, platform: 'linux', exists: () => true, electron }).description).toMatch(/^Fleetdeck's own Chromium/);
  });

  it('with no Chromium at all and not on the app runtime, fails saying where it looked and what to do', async () => {
    const p = choosePdfPrinter({ env: {}, platform: 'darwin', exists: () => false, electron: undefined });
    expect(p.description).toBe('no PDF printer');
    await expect(p.print(['<p>x</p>'])).rejects.toThrow(/no Chromium to print the PDF with \(looked for \/Applications\/Chromium\.app.*\): install Chromium, set FLEETDECK_CHROMIUM/);
    const forced = choosePdfPrinter({ env: { FLEETDECK_CHROMIUM: 'app' }, platform: 'linux', exists: () => true, electron: undefined });
    await expect(forced.print(['<p>x</p>'])).rejects.toThrow(/not running on the app's runtime/);
  });

  it('looks for Chrome under the Windows program folders', () => {
    expect(systemChromiumPaths('win32', { ProgramFiles: 'C:\\Program Files', LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' })).toEqual([
      'C:\\Users\\a\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe',
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    ]);
  });
});

describe("appChromiumPrintToPdf: the app's runtime started as a print worker", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fd-appprint-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A stand-in runtime: checks it was started as the app (not as Node), then does what `mode` says with the parts. */
  function runtime(mode: 'print' | 'fail' | 'hang'): string {
    const script = join(dir, 'worker.cjs');
    writeFileSync(
      script,
      `const fs = require('node:fs'), path = require('node:path');
       if (process.env.ELECTRON_RUN_AS_NODE) { console.error('started as Node, not as the app'); process.exit(3); }
       const arg = process.argv.find((a) => a.startsWith(${JSON.stringify(PRINT_WORKER_FLAG)} + '='));
       const out = arg.slice(${PRINT_WORKER_FLAG.length + 1});
       fs.writeFileSync(path.join(${JSON.stringify(dir)}, 'args.json'), JSON.stringify(process.argv.slice(2)));
       if (${JSON.stringify(mode)} === 'fail') { console.error('fleetdeck: printing the PDF failed: the GPU process crashed'); process.exit(1); }
       if (${JSON.stringify(mode)} === 'hang') setInterval(() => undefined, 1000);
       else for (const f of fs.readdirSync(out).filter((n) => n.endsWith('.html'))) fs.writeFileSync(path.join(out, f.replace('.html', '.pdf')), '%PDF ' + fs.readFileSync(path.join(out, f), 'utf8'));`,
    );
    const bin = join(dir, 'fleetdeck');
    writeFileSync(bin, `#!/bin/sh\nexec '${process.execPath}' '${script}' "$@"\n`);
    chmodSync(bin, 0o755);
    return bin;
  }

  it.runIf(process.platform !== 'win32')('hands the parts over in a private folder and returns the PDFs in order, folder removed', async () => {
    process.env.ELECTRON_RUN_AS_NODE = '1';
    try {
      const pdfs = await appChromiumPrintToPdf(runtime('print'), '/src/fleetdeck')(['<p>one</p>', '<p>two</p>', '<p>three</p>']);
      expect(pdfs.map((b) => b.toString())).toEqual(['%PDF <p>one</p>', '%PDF <p>two</p>', '%PDF <p>three</p>']);
    } finally {
      delete process.env.ELECTRON_RUN_AS_NODE;
    }
    const args = JSON.parse(readFileSync(join(dir, 'args.json'), 'utf8')) as string[];
    expect(args[0]).toBe('/src/fleetdeck');
    const folder = args[1]!.slice(PRINT_WORKER_FLAG.length + 1);
    expect(existsSync(folder)).toBe(false);
  });

  it.runIf(process.platform !== 'win32')("fails with the worker's own reason", async () => {
    await expect(appChromiumPrintToPdf(runtime('fail'))(['<p>x</p>'])).rejects.toThrow(/the app's Chromium failed to print the PDF \(exit 1\): fleetdeck: printing the PDF failed: the GPU process crashed/);
  });

  it.runIf(process.platform !== 'win32')('stops a worker that does not finish within the timeout', async () => {
    await expect(appChromiumPrintToPdf(runtime('hang'), undefined, 300)(['<p>x</p>'])).rejects.toThrow(/did not finish printing the PDF within 1 s/);
  });
});
