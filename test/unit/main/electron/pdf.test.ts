import type { BrowserWindowConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { electronPrintToPdf } from '../../../../main/electron/pdf.js';

/** A stand-in for BrowserWindow recording what the printer does with it. */
function fakeWindow(fail: boolean) {
  const made: Array<{ options: BrowserWindowConstructorOptions; url?: string; destroyed: boolean }> = [];
  class Win {
    private readonly rec: (typeof made)[number];
    constructor(options: BrowserWindowConstructorOptions) {
      this.rec = { options, destroyed: false };
      made.push(this.rec);
    }
    async loadURL(url: string): Promise<void> {
      this.rec.url = url;
    }
    destroy(): void {
      this.rec.destroyed = true;
    }
    isDestroyed(): boolean {
      return this.rec.destroyed;
    }
    webContents = {
      printToPDF: async (o: Record<string, unknown>): Promise<Buffer> => {
        if (fail) throw new Error('printing failed');
        return Buffer.from(`%PDF ${JSON.stringify(o)}`);
      },
    };
  }
  return { Win, made };
}

describe('Electron print-to-PDF', () => {
  it('renders each document in its own hidden sandboxed window without JavaScript and destroys it', async () => {
    const { Win, made } = fakeWindow(false);
    const pdfs = await electronPrintToPdf(Win as never)(['<h1>Audit — ünïcode</h1>', '<h2>part two</h2>']);
    expect(pdfs).toHaveLength(2);
    for (const pdf of pdfs) expect(pdf.toString()).toMatch(/^%PDF .*"landscape":true.*"printBackground":true/);
    expect(made).toHaveLength(2);
    expect(Buffer.from((made[1]?.url ?? '').split('base64,')[1] ?? '', 'base64').toString('utf8')).toBe('<h2>part two</h2>');
    expect(made[1]?.destroyed).toBe(true);
    const [w] = made;
    expect(w?.options.show).toBe(false);
    expect(w?.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false });
    const html = Buffer.from((w?.url ?? '').split('base64,')[1] ?? '', 'base64').toString('utf8');
    expect(html).toBe('<h1>Audit — ünïcode</h1>');
    expect(w?.destroyed).toBe(true);
  });

  it('destroys every window when printing fails', async () => {
    const { Win, made } = fakeWindow(true);
    await expect(electronPrintToPdf(Win as never)(['<p>x</p>', '<p>y</p>'])).rejects.toThrow(/printing failed/);
    expect(made.map((w) => w.destroyed)).toEqual([true, true]);
  });
});
