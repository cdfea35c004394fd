/**
 * Prints a self-contained HTML document to PDF. The CLI and the browser shell use
 * {@link chromiumPrintToPdf}; the Electron shell passes its own, built on a hidden window's
 * `webContents.printToPDF` (no second browser needed there).
 */
export type PrintToPdf = (html: string) => Promise<Buffer>;

/** Flags for a headless Chromium that never phones home while printing. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The Chromium binary: `FLEETDECK_CHROMIUM`, else Debian's. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.FLEETDECK_CHROMIUM ?? '/usr/bin/chromium';
}

/**
 * Print-to-PDF through a headless Chromium launched for the call and closed after it. The page
 * gets no network: every request is aborted, so the PDF shows exactly the HTML it was given.
 * A4 landscape with the page size, margins and footer taken from the document's own `@page` CSS.
 * @throws Error naming the binary when Chromium cannot be started.
 */
export function chromiumPrintToPdf(options: { executablePath?: string; timeoutMs?: number } = {}): PrintToPdf {
  const executablePath = options.executablePath ?? chromiumPath();
  const timeout = options.timeoutMs ?? 60_000;
  return async (html) => {
    // Loaded on first use: every CLI command and the app start would otherwise pay for it.
    const { chromium } = await import('playwright-core');
    let browser;
    try {
      browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true, timeout });
    } catch (err) {
      throw new Error(`cannot start Chromium at ${executablePath} to print the PDF (set FLEETDECK_CHROMIUM): ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
    try {
      const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
      const page = await context.newPage();
      await page.route('**/*', (route) => route.abort());
      page.setDefaultTimeout(timeout);
      await page.setContent(html, { waitUntil: 'load' });
      // Untagged: a tagged PDF of a large audit pack is about 13 times the size; the HTML export
      // is the accessible form of the same report.
      return await page.pdf({ preferCSSPageSize: true, printBackground: true, format: 'A4', landscape: true, tagged: false, outline: true });
    } finally {
      await browser.close();
    }
  };
}
