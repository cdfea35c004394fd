import type * as PdfLibModule from 'pdf-lib';
import type { PDFDict, PDFDocument, PDFPage, PDFRef } from 'pdf-lib';
import type { OutlineEntry } from './html.js';

type PdfLib = typeof PdfLibModule;

/** What {@link mergePdfParts} adds to the merged document. */
export interface MergeOptions {
  /** Bookmarks; an entry whose `dest` its part does not define is left out (with its children). */
  outline: readonly OutlineEntry[];
  title: string;
  /** Creator shown in the document properties, e.g. `Fleetdeck 0.1.0`. */
  creator: string;
  /** The report's generation time: the document's creation date (a pack is reproducible from its model). */
  createdAt: Date;
  /** The stamped page label, default `Page 3 of 120`. */
  pageLabel?: (page: number, pages: number) => string;
}

/** Bottom-right page number, matching the HTML's `@page` margin box: 7 pt, #555, right margin 10 mm, bottom margin 14 mm. */
const MM = 72 / 25.4;
const LABEL_SIZE = 7;
const LABEL_RIGHT = 10 * MM;
const LABEL_BASELINE = 14 * MM * 0.5 - LABEL_SIZE * 0.35;

/**
 * Merges PDFs printed from the parts of one report (see `renderPdfParts`) into one document:
 * pages in order with their links, the parts' named destinations re-pointed at the merged pages
 * (so the contents on page 1 link into every part), an outline built from `outline`, and
 * `Page n of N` stamped on every page. Opens with the bookmarks shown.
 * @throws Error when a part is not a readable PDF.
 */
export async function mergePdfParts(parts: readonly Uint8Array[], o: MergeOptions): Promise<Buffer> {
  // Loaded on first use (as is Chromium): it is a large CommonJS library every start of the app,
  // the CLI and the browser shell would otherwise load and compile before answering anything.
  const lib = await import('pdf-lib');
  const { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef } = lib;
  const out = await PDFDocument.create({ updateMetadata: false });
  const dests = out.context.obj({});
  const owners = new Map(o.outline.flatMap((e) => [e, ...e.children]).map((e) => [e.dest, e.part]));
  for (const [i, bytes] of parts.entries()) {
    let src: PDFDocument;
    try {
      src = await PDFDocument.load(bytes, { updateMetadata: false });
    } catch (err) {
      throw new Error(`PDF part ${i + 1} of ${parts.length} is not readable: ${err instanceof Error ? err.message : String(err)}`);
    }
    const copied = await out.copyPages(src, src.getPageIndices());
    const pageMap = new Map<string, PDFRef>(src.getPages().map((p, k) => [p.ref.toString(), (copied[k] as PDFPage).ref]));
    for (const page of copied) out.addPage(page);
    const srcDests = src.catalog.lookupMaybe(PDFName.of('Dests'), PDFDict);
    for (const [name, value] of srcDests?.entries() ?? []) {
      // A heading's name is taken from the part that holds it (the others only stand in for it).
      const owner = owners.get(name.decodeText());
      if (owner !== undefined ? owner !== i : dests.has(name)) continue;
      const dest = src.context.lookupMaybe(value, PDFArray);
      const pageRef = dest?.get(0);
      const target = pageRef instanceof PDFRef ? pageMap.get(pageRef.toString()) : undefined;
      if (!dest || !target) continue;
      // [page /XYZ left top zoom]: only the page changes; the rest are numbers and names.
      dests.set(name, out.context.obj([target, ...dest.asArray().slice(1)]));
    }
  }
  if (dests.keys().length) out.catalog.set(PDFName.of('Dests'), out.context.register(dests));
  addOutline(lib, out, o.outline, dests);
  stampPageNumbers(lib, out, o.pageLabel ?? ((n, total) => `Page ${n} of ${total}`));
  out.setTitle(o.title, { showInWindowTitleBar: true });
  out.setCreator(o.creator);
  out.setProducer(o.creator);
  out.setCreationDate(o.createdAt);
  out.setModificationDate(o.createdAt);
  out.setLanguage('en');
  return Buffer.from(await out.save({ useObjectStreams: true }));
}

function stampPageNumbers({ StandardFonts, rgb }: PdfLib, doc: PDFDocument, label: (page: number, pages: number) => string): void {
  const font = doc.embedStandardFont(StandardFonts.Helvetica);
  const pages = doc.getPages();
  for (const [i, page] of pages.entries()) {
    const text = label(i + 1, pages.length);
    const { width } = page.getSize();
    page.drawText(text, { x: width - LABEL_RIGHT - font.widthOfTextAtSize(text, LABEL_SIZE), y: LABEL_BASELINE, size: LABEL_SIZE, font, color: rgb(0x55 / 255, 0x55 / 255, 0x55 / 255) });
  }
}

/** Writes /Outlines from the entries whose destination exists (a standard outline tree, PDF 32000-1 §12.3.3). */
function addOutline({ PDFHexString, PDFName, PDFNumber }: PdfLib, doc: PDFDocument, entries: readonly OutlineEntry[], dests: PDFDict): void {
  const known = new Set(dests.keys().map((k) => k.decodeText()));
  const keep = (list: readonly OutlineEntry[]): OutlineEntry[] => list.filter((e) => known.has(e.dest)).map((e) => ({ ...e, children: keep(e.children) }));
  const tree = keep(entries);
  if (!tree.length) return;
  const ctx = doc.context;
  const rootRef = ctx.nextRef();
  /** Writes one level below `parent`; returns the first and last refs and how many items are visible. */
  const level = (list: OutlineEntry[], parent: PDFRef): { first: PDFRef; last: PDFRef; count: number } => {
    const refs = list.map(() => ctx.nextRef());
    let count = list.length;
    list.forEach((e, i) => {
      const item = ctx.obj({}) as PDFDict;
      item.set(PDFName.of('Title'), PDFHexString.fromText(e.title));
      item.set(PDFName.of('Parent'), parent);
      item.set(PDFName.of('Dest'), PDFName.of(e.dest));
      if (i > 0) item.set(PDFName.of('Prev'), refs[i - 1] as PDFRef);
      if (i < list.length - 1) item.set(PDFName.of('Next'), refs[i + 1] as PDFRef);
      if (e.children.length) {
        const sub = level(e.children, refs[i] as PDFRef);
        item.set(PDFName.of('First'), sub.first);
        item.set(PDFName.of('Last'), sub.last);
        // Positive: the section opens showing its tables.
        item.set(PDFName.of('Count'), PDFNumber.of(sub.count));
        count += sub.count;
      }
      ctx.assign(refs[i] as PDFRef, item);
    });
    return { first: refs[0] as PDFRef, last: refs.at(-1) as PDFRef, count };
  };
  const top = level(tree, rootRef);
  ctx.assign(rootRef, ctx.obj({ Type: 'Outlines', First: top.first, Last: top.last, Count: top.count }));
  doc.catalog.set(PDFName.of('Outlines'), rootRef);
  doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
}
