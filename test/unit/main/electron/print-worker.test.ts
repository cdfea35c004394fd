import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { printWorkerDir, runPrintWorker } from '../../../../main/electron/print-worker.js';

/** A hidden window that "prints" the file it loaded. */
class Win {
  private file = '';
  private destroyed = false;
  async loadFile(file: string): Promise<void> {
    this.file = file;
  }
  destroy(): void {
    this.destroyed = true;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  webContents = {
    once: () => undefined,
    printToPDF: async (): Promise<Buffer> => Buffer.from(`%PDF ${readFileSync(this.file, 'utf8')}`),
  };
}

let dir: string;
const calls: string[] = [];
const app = {
  setPath: (name: string, path: string) => void calls.push(`setPath ${name} ${path}`),
  enableSandbox: () => void calls.push('enableSandbox'),
  whenReady: async () => void calls.push('whenReady'),
  exit: (code?: number) => void calls.push(`exit ${code}`),
  on: (event: string) => void calls.push(`on ${event}`),
};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fd-worker-'));
  calls.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the print worker (the app runtime printing for the CLI)', () => {
  it('is started by --fleetdeck-print-pdf=DIR and nothing else', () => {
    expect(printWorkerDir(['/opt/Fleetdeck/fleetdeck', '--fleetdeck-print-pdf=/tmp/x'])).toBe('/tmp/x');
    expect(printWorkerDir(['/opt/Fleetdeck/fleetdeck', '--site', 'paris'])).toBeUndefined();
    expect(printWorkerDir(['electron', '--fleetdeck-print-pdf='])).toBeUndefined();
  });

  it('prints every part in order to part-N.pdf beside it, with its profile in that folder, and exits 0', async () => {
    for (const n of [1, 2, 10]) writeFileSync(join(dir, `part-${n}.html`), `<p>${n}</p>`);
    writeFileSync(join(dir, 'part-3.html'), '<p>3</p>');
    for (const n of [4, 5, 6, 7, 8, 9]) writeFileSync(join(dir, `part-${n}.html`), `<p>${n}</p>`);
    await runPrintWorker(dir, app as never, Win as never);
    // Closing the last print window must not quit before the PDFs are written.
    expect(calls).toEqual([`setPath userData ${join(dir, 'profile')}`, 'on window-all-closed', 'enableSandbox', 'whenReady', 'exit 0']);
    for (let n = 1; n <= 10; n++) expect(readFileSync(join(dir, `part-${n}.pdf`), 'utf8')).toBe(`%PDF <p>${n}</p>`);
    if (process.platform !== 'win32') expect(statSync(join(dir, 'part-1.pdf')).mode & 0o777).toBe(0o600);
  });

  it('says why on stderr and exits 1 when there is nothing to print', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await runPrintWorker(dir, app as never, Win as never);
    expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toMatch(/printing the PDF failed: no part-N\.html to print/);
    stderr.mockRestore();
    expect(calls.at(-1)).toBe('exit 1');
  });
});
