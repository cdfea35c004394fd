import fs from 'node:fs';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, type PDFHexString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redacted } from '../../../app/redact.js';
import type { ReportModel } from '../../../app/reports/model.js';
import { renderHtml } from '../../../main/reports/html.js';
import { writeReportPdf } from '../../../main/reports/pdf.js';
import { pdfText, reportHarness, type ReportHarness } from './support.js';

/** The printable width of the report's A4 landscape page in CSS px: 297 mm − 2 × 10 mm margins. */
const PRINT_WIDTH_PX = Math.floor(((297 - 20) / 25.4) * 96);

/** Chromium, for the HTML export's layout check only (the PDF needs no browser). */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

describe('the PDF of an audit pack of the simulator fleet, read back by poppler', () => {
  let h: ReportHarness;
  let model: Redacted<ReportModel>;
  let pdf: Buffer;
  let dir: string;

  beforeAll(async () => {
    h = await reportHarness({ sites: 2, systems: 2 });
    await h.fleet.refresh();
    model = (await h.reports.generate({ kind: 'audit' })).model;
    pdf = await writeReportPdf(model);
    dir = h.tempDir();
    fs.writeFileSync(path.join(dir, 'report.pdf'), pdf);
  }, 60_000);
  afterAll(async () => h?.close());

  it('numbers every page and shows every system of the fleet', () => {
    const pages = pdfText(path.join(dir, 'report.pdf')).split('\f').slice(0, -1);
    expect(pages.length).toBeGreaterThan(model.sections.length);
    pages.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(page).toContain(`${model.title} · ${model.generatedAt}`);
    });
    const all = pages.join('\n');
    for (const s of model.scope.systems) expect(all).toContain(`${s.siteName} / ${s.system}`);
  });

  it('opens on an outline of every section and its tables, each pointing at the page its heading is on', async () => {
    const doc = await PDFDocument.load(pdf);
    const pageIndex = new Map(doc.getPages().map((p, i) => [p.ref.toString(), i]));
    const dests = doc.catalog.lookup(PDFName.of('Dests'), PDFDict);
    const pageOf = (name: PDFName): number => {
      const ref = dests.lookup(name, PDFArray).get(0);
      const index = ref instanceof PDFRef ? pageIndex.get(ref.toString()) : undefined;
      if (index === undefined) throw new Error(`destination ${name.toString()} points at no page of the document`);
      return index;
    };
    expect(doc.catalog.get(PDFName.of('PageMode'))).toBe(PDFName.of('UseOutlines'));
    const items = (first: PDFDict | undefined): PDFDict[] => {
      const out: PDFDict[] = [];
      for (let item = first; item; item = item.lookupMaybe(PDFName.of('Next'), PDFDict)) out.push(item);
      return out;
    };
    const title = (item: PDFDict): string => (item.lookup(PDFName.of('Title')) as PDFHexString).decodeText();
    const top = items(doc.catalog.lookup(PDFName.of('Outlines'), PDFDict).lookupMaybe(PDFName.of('First'), PDFDict));
    expect(top.map(title)).toEqual(model.sections.map((s) => s.title));
    const text = pdfText(path.join(dir, 'report.pdf')).split('\f');
    for (const [i, section] of model.sections.entries()) {
      const item = top[i] as PDFDict;
      const page = pageOf(item.lookup(PDFName.of('Dest'), PDFName));
      expect(text[page]).toContain(section.title);
      const children = items(item.lookupMaybe(PDFName.of('First'), PDFDict));
      expect(children.map(title)).toEqual([...(section.dataAges.length ? ['Data age'] : []), ...section.tables.map((t) => t.title)]);
      for (const child of children) {
        const at = pageOf(child.lookup(PDFName.of('Dest'), PDFName));
        expect(at).toBeGreaterThanOrEqual(page);
        expect(text[at]).toContain(title(child));
      }
    }
    // The contents on page 1 link to every section and table.
    const links = doc.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray).asArray().map((a) => doc.context.lookup(a, PDFDict).lookup(PDFName.of('Dest'), PDFName));
    expect(links.length).toBeGreaterThanOrEqual(model.sections.length);
    for (const link of links) pageOf(link);
    expect(new Set(links.map(pageOf)).size).toBeGreaterThan(model.sections.length);
  });

  it('the HTML export sets every table within the printed page width, so a browser prints it unshrunk', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: PRINT_WIDTH_PX, height: 800 } });
      await page.setContent(renderHtml(model));
      await page.emulateMedia({ media: 'print' });
      const tables = await page.evaluate(() => [...document.querySelectorAll('table')].map((t) => ({ title: t.previousElementSibling?.textContent ?? '', right: t.getBoundingClientRect().right })));
      expect(tables.length).toBeGreaterThan(10);
      for (const t of tables) expect(t.right, t.title).toBeLessThanOrEqual(PRINT_WIDTH_PX);
    } finally {
      await browser.close();
    }
  }, 180_000); // Chromium on a loaded machine: a generous limit, not a speed check.
});
