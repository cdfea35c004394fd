import fs from 'node:fs';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, type PDFHexString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redacted } from '../../../app/redact.js';
import type { ReportModel } from '../../../app/reports/model.js';
import { renderHtml } from '../../../main/reports/html.js';
import { CHROMIUM_ARGS, chromiumPath, chromiumPrintToPdf, printReportPdf } from '../../../main/reports/pdf.js';
import { pdfText, reportHarness, type ReportHarness } from './support.js';

/** The printable width of the report's A4 landscape page in CSS px: 297 mm − 2 × 10 mm margins. */
const PRINT_WIDTH_PX = Math.floor(((297 - 20) / 25.4) * 96);

describe('the PDF of a report, printed in parts at once and merged', () => {
  let h: ReportHarness;
  let model: Redacted<ReportModel>;
  let whole: Buffer;
  let parts: Buffer;
  let dir: string;

  beforeAll(async () => {
    h = await reportHarness({ sites: 2, systems: 2 });
    await h.fleet.refresh();
    model = (await h.reports.generate({ kind: 'audit' })).model;
    const print = chromiumPrintToPdf();
    whole = await printReportPdf(model, print, 1);
    parts = await printReportPdf(model, print, 3);
    dir = h.tempDir();
    fs.writeFileSync(path.join(dir, 'whole.pdf'), whole);
    fs.writeFileSync(path.join(dir, 'parts.pdf'), parts);
  }, 60_000);
  afterAll(async () => h?.close());

  it('has the pages one document would have, numbered across the parts', () => {
    // Each page's lines without the blank ones (pdftotext pads the last page of a part differently).
    const pagesOf = (file: string): string[] =>
      pdfText(path.join(dir, file))
        .split('\f')
        .slice(0, -1)
        .map((page) => page.split('\n').map((l) => l.trimEnd()).filter(Boolean).join('\n'));
    const one = pagesOf('whole.pdf');
    const three = pagesOf('parts.pdf');
    expect(three.length).toBeGreaterThan(model.sections.length);
    expect(three).toHaveLength(one.length);
    three.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${three.length}`);
      expect(page).toContain(`${model.title} · ${model.generatedAt}`);
      // Same text on the same page: the cuts fell where the document breaks pages anyway.
      expect(page).toBe(one[i]);
    });
  });

  it('opens on an outline of every section and its tables, each pointing at the page its heading is on', async () => {
    const doc = await PDFDocument.load(parts);
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
    const text = pdfText(path.join(dir, 'parts.pdf')).split('\f');
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
    // The contents on page 1 link into every part.
    const links = doc.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray).asArray().map((a) => doc.context.lookup(a, PDFDict).lookup(PDFName.of('Dest'), PDFName));
    expect(links.length).toBeGreaterThanOrEqual(model.sections.length);
    for (const link of links) pageOf(link);
    expect(new Set(links.map(pageOf)).size).toBeGreaterThan(model.sections.length);
  });

  it('sets every table within the printed page width, so no part is shrunk to fit', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS] });
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
  });
});
