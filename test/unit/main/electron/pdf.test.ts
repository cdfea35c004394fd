import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserWindowConstructorOptions } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { electronPrintToPdf } from '../../../../main/electron/pdf.js';
import { printStepTimeoutMs } from '../../../../main/reports/pdf.js';

type Behaviour = 'print' | 'fail' | 'hang' | 'crash';

/** A stand-in for BrowserWindow recording what the printer does with it. */
function fakeWindow(behaviour: Behaviour) {
  const made: Array<{ options: BrowserWindowConstructorOptions; file?: string; html?: string; mode?: number; destroyed: boolean }> = [];
  class Win {
    private readonly rec: (typeof made)[number];
    private readonly listeners = new Map<string, (...args: unknown[]) => void>();
    constructor(options: BrowserWindowConstructorOptions) {
      this.rec = { options, destroyed: false };
      made.push(this.rec);
    }
    async loadFile(file: string): Promise<void> {
      this.rec.file = file;
      this.rec.html = readFileSync(file, 'utf8');
      this.rec.mode = statSync(file).mode & 0o777;
      if (behaviour === 'crash') this.listeners.get('render-process-gone')?.({}, { reason: 'oom', exitCode: 1 });
      if (behaviour === 'hang' || behaviour === 'crash') await new Promise(() => undefined);
    }
    destroy(): void {
      this.rec.destroyed = true;
    }
    isDestroyed(): boolean {
      return this.rec.destroyed;
    }
    webContents = {
      once: (event: string, listener: (...args: unknown[]) => void) => void this.listeners.set(event, listener),
      printToPDF: async (o: Record<string, unknown>): Promise<Buffer> => {
        if (behaviour === 'fail') throw new Error('printing failed');
        return Buffer.from(`%PDF ${JSON.stringify(o)} ${this.rec.html ?? ''}`);
      },
    };
  }
  return { Win, made };
}

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'fd-epdf-'));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(tmp, { recursive: true, force: true });
});

describe('Electron print-to-PDF', () => {
  it('renders each document from a private file in its own hidden sandboxed window without JavaScript, and cleans up', async () => {
    const { Win, made } = fakeWindow('print');
    const pdfs = await electronPrintToPdf(Win as never, { tmpDir: tmp })(['<h1>Audit — ünïcode</h1>', '<h2>part two</h2>']);
    expect(pdfs).toHaveLength(2);
    for (const pdf of pdfs) expect(pdf.toString()).toMatch(/^%PDF .*"landscape":true.*"printBackground":true/);
    // Each PDF comes back in the order of its document, whichever window finished loading first.
    expect(pdfs.map((pdf) => pdf.toString().endsWith('<h1>Audit — ünïcode</h1>'))).toEqual([true, false]);
    expect(pdfs[1]!.toString().endsWith('<h2>part two</h2>')).toBe(true);
    expect(made.map((w) => w.html).sort()).toEqual(['<h1>Audit — ünïcode</h1>', '<h2>part two</h2>']);
    for (const w of made) {
      expect(w.options.show).toBe(false);
      expect(w.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false });
      if (process.platform !== 'win32') expect(w.mode).toBe(0o600);
      expect(w.destroyed).toBe(true);
      expect(existsSync(w.file!)).toBe(false);
    }
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('prints a part larger than the 2 MiB Chromium allows in a URL (an audit pack of ~70 systems)', async () => {
    const { Win, made } = fakeWindow('print');
    const big = `<table>${'<tr><td>prod-a</td><td>drive 0123456789 OK</td></tr>'.repeat(60_000)}</table>`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(2 * 1024 * 1024);
    await electronPrintToPdf(Win as never, { tmpDir: tmp })([big]);
    expect(made[0]?.html).toBe(big);
  });

  it('destroys every window when printing fails', async () => {
    const { Win, made } = fakeWindow('fail');
    await expect(electronPrintToPdf(Win as never, { tmpDir: tmp })(['<p>x</p>', '<p>y</p>'])).rejects.toThrow(/printing failed/);
    expect(made.map((w) => w.destroyed)).toEqual([true, true]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('gives up on a part that hangs after the timeout, saying so, and destroys its window', async () => {
    vi.useFakeTimers();
    const { Win, made } = fakeWindow('hang');
    const printing = electronPrintToPdf(Win as never, { tmpDir: tmp, timeoutMs: 60_000 })(['<p>x</p>']);
    const outcome = expect(printing).rejects.toThrow(/took longer than 60 s/);
    await vi.waitFor(() => expect(made).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(printStepTimeoutMs(60_000, '<p>x</p>'.length));
    await outcome;
    expect(made[0]?.destroyed).toBe(true);
  });

  it('gives a large part time in proportion to its size: the 200-system audit pack is not cut at the base timeout', async () => {
    vi.useFakeTimers();
    const { Win, made } = fakeWindow('hang');
    const big = `<p>${'x'.repeat(2_000_000)}</p>`;
    let settled = false;
    const printing = electronPrintToPdf(Win as never, { tmpDir: tmp, timeoutMs: 60_000 })([big]);
    const outcome = expect(printing.finally(() => (settled = true))).rejects.toThrow(/took longer than 180 s/);
    await vi.waitFor(() => expect(made).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(printStepTimeoutMs(60_000, big.length) - 60_000);
    await outcome;
    expect(made[0]?.destroyed).toBe(true);
  });

  it('fails with the reason when the renderer printing a part crashes', async () => {
    const { Win, made } = fakeWindow('crash');
    await expect(electronPrintToPdf(Win as never, { tmpDir: tmp })(['<p>x</p>'])).rejects.toThrow(/renderer printing a part of the PDF stopped \(oom\)/);
    expect(made[0]?.destroyed).toBe(true);
  });
});
