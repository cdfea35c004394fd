import { availableParallelism } from 'node:os';
import type { Browser } from 'playwright-core';
import type { Redacted } from '../../app/redact.js';
import type { ReportModel } from '../../app/reports/model.js';
import { renderPdfParts } from './html.js';
import { mergePdfParts } from './pdf-merge.js';

/**
 * Prints self-contained HTML documents to PDF, one PDF per document, in order. Implementations
 * print them concurrently (each in its own renderer process): a large report is printed as
 * several parts at once. The CLI and the browser shell use {@link chromiumPrintToPdf}; the
 * Electron shell passes its own, built on hidden windows' `webContents.printToPDF` (no second
 * browser needed there).
 */
export type PrintToPdf = (documents: readonly string[]) => Promise<Buffer[]>;

/**
 * Parts printed at once by default: one per CPU, at most 4 (each is a Chromium renderer process of
 * a few hundred MB for a large pack; an audit pack has five sections to cut between anyway).
 */
export const DEFAULT_PDF_PARALLELISM = Math.max(1, Math.min(4, availableParallelism()));

/**
 * A report as one PDF: rendered as up to `parallelism` parts (cut between sections), printed
 * concurrently, merged with the outline, links and page numbers of one document.
 */
export async function printReportPdf(model: Redacted<ReportModel>, printToPdf: PrintToPdf, parallelism = DEFAULT_PDF_PARALLELISM): Promise<Buffer> {
  const parts = renderPdfParts(model, parallelism);
  const pdfs = await printToPdf(parts.documents);
  if (pdfs.length !== parts.documents.length) throw new Error(`the PDF printer returned ${pdfs.length} PDFs for ${parts.documents.length} documents`);
  return mergePdfParts(pdfs, { outline: parts.outline, title: model.title, creator: `Fleetdeck ${model.appVersion}`, createdAt: new Date(model.generatedAt) });
}

/** How long one printing step (starting the printer, loading a part, printing it) may take, ms. */
export const PDF_TIMEOUT_MS = 60_000;

/** Extra time a printing step gets per million characters of its part's HTML, ms. */
export const PDF_TIMEOUT_PER_MB_MS = 60_000;

/**
 * The time one part may take to load or print: the base timeout plus time in proportion to its
 * size. Chromium's layout and printing grow with the rows of the report (about 130 ms of CPU a
 * page on a 2-core machine), so a fixed limit that suits 60 systems fails the audit pack of 200;
 * the limit is there to end a hung printer, not to cap the size of a report.
 */
export function printStepTimeoutMs(baseMs: number, htmlLength: number): number {
  return baseMs + Math.ceil((PDF_TIMEOUT_PER_MB_MS * htmlLength) / 1_000_000);
}

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

/** The address a report document is served at inside the printing browser (never resolved: routed). */
const REPORT_URL = 'http://fleetdeck-report.invalid/';

/** One timed step of {@link chromiumPrintToPdf}: starting Chromium, or loading / printing part `part`. */
export interface PrintPhase {
  phase: 'launch' | 'load' | 'print';
  part?: number;
  ms: number;
}

/**
 * Print-to-PDF through one headless Chromium launched for the call and closed after it; each
 * document gets its own browser context (its own renderer process, so parts print on separate
 * cores) with JavaScript off. The page gets no network: the document itself is served by a
 * route and every other request is aborted, so the PDF shows exactly the HTML it was given.
 * A4 landscape with the page size, margins and footer taken from the document's own `@page` CSS.
 * @throws Error naming the binary when Chromium cannot be started.
 */
export function chromiumPrintToPdf(options: { executablePath?: string; timeoutMs?: number; onPhase?: (p: PrintPhase) => void } = {}): PrintToPdf {
  const executablePath = options.executablePath ?? chromiumPath();
  const timeout = options.timeoutMs ?? PDF_TIMEOUT_MS;
  // Where printing time goes (the bench reports it by phase).
  const timed = async <T>(phase: PrintPhase['phase'], part: number | undefined, step: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await step();
    options.onPhase?.({ phase, ...(part === undefined ? {} : { part }), ms: performance.now() - t });
    return out;
  };
  return async (documents) => {
    // Loaded on first use: every CLI command and the app start would otherwise pay for it.
    const { chromium } = await import('playwright-core');
    let browser: Browser;
    try {
      browser = await timed('launch', undefined, () => chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true, timeout }));
    } catch (err) {
      throw new Error(`cannot start Chromium at ${executablePath} to print the PDF (set FLEETDECK_CHROMIUM): ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
    try {
      return await Promise.all(
        documents.map(async (html, part) => {
          const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
          await context.route('**/*', (route) =>
            route.request().url() === REPORT_URL ? route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }) : route.abort(),
          );
          const page = await context.newPage();
          const stepTimeout = printStepTimeoutMs(timeout, html.length);
          page.setDefaultTimeout(stepTimeout);
          // Navigating to the routed document parses it natively; setContent would pass it through a script.
          await timed('load', part, () => page.goto(REPORT_URL, { waitUntil: 'load', timeout: stepTimeout }));
          // Untagged: a tagged PDF of a large audit pack is about 8 times the size; the HTML export
          // is the accessible form of the same report. The outline is added when the parts are merged.
          const pdf = await timed('print', part, () => page.pdf({ preferCSSPageSize: true, printBackground: true, format: 'A4', landscape: true, tagged: false, outline: false }));
          await context.close();
          return pdf;
        }),
      );
    } finally {
      await browser.close();
    }
  };
}
