import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, StandardFonts, type PDFHexString, type PDFRawStream } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { redact } from '../../../../app/redact.js';
import { buildReport } from '../../../../app/reports/build.js';
import type { ReportModel, ReportTable } from '../../../../app/reports/model.js';
import { writeReportPdf } from '../../../../main/reports/pdf.js';
import { fixtureInput } from '../../app/reports/fixtures.js';

/** One string the page shows: where, in which font and size, and its text (decoded from WinAnsi). */
interface Shown {
  x: number;
  y: number;
  font: string;
  size: number;
  text: string;
  /** Width of the text in points, from the font's metrics. */
  width: number;
}

interface ReadPdf {
  doc: PDFDocument;
  /** Per page, the strings in the order they are drawn. */
  pages: Shown[][];
  /** Per page, its lines of text: strings on one baseline, left to right, joined by a space. */
  lines: string[][];
}

/**
 * Reads back what the writer drew, without a PDF viewer: inflates each page's content stream and
 * follows its text operators (`Tf`, `Tm`, `Tj`), decoding the WinAnsi bytes with the standard
 * font's own encoding. Independent of the writer's code.
 */
async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const doc = await PDFDocument.load(bytes);
  const probe = await PDFDocument.create();
  const fonts = { F1: probe.embedStandardFont(StandardFonts.Helvetica), F2: probe.embedStandardFont(StandardFonts.HelveticaBold), F3: probe.embedStandardFont(StandardFonts.HelveticaOblique) };
  const decode = new Map<number, string>();
  for (const cp of fonts.F1.getCharacterSet()) decode.set(Number.parseInt(fonts.F1.encodeText(String.fromCodePoint(cp)).toString().slice(1, -1), 16), String.fromCodePoint(cp));
  const pages = doc.getPages().map((page) => {
    // Loading wraps a page's one stream in an array.
    const contents = page.node.lookup(PDFName.of('Contents'));
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r) as PDFRawStream) : [contents as PDFRawStream];
    const content = streams.map((st) => inflateSync(st.getContents()).toString('latin1')).join('\n');
    const out: Shown[] = [];
    let font = '';
    let size = 0;
    let x = 0;
    let y = 0;
    // Tokens: a literal string (with escapes), a name, a number or an operator.
    const tokens = content.matchAll(/\((?:\\.|[^\\)])*\)|\/\w+|-?\d+(?:\.\d+)?|[A-Za-z]+/gs);
    const stack: string[] = [];
    for (const [tok] of tokens) {
      if (tok === 'Tf') {
        size = Number(stack.pop());
        font = (stack.pop() ?? '').slice(1);
      } else if (tok === 'Tm') {
        y = Number(stack.pop());
        x = Number(stack.pop());
      } else if (tok === 'Tj') {
        const raw = (stack.pop() ?? '()').slice(1, -1).replace(/\\(.)/gs, '$1');
        const text = [...raw].map((ch) => decode.get(ch.charCodeAt(0)) ?? '\uFFFD').join('');
        const f = fonts[font as keyof typeof fonts];
        out.push({ x, y, font, size, text, width: f.widthOfTextAtSize(text, size) });
      } else if (/^[A-Za-z]+$/.test(tok)) stack.length = 0;
      else stack.push(tok);
    }
    return out;
  });
  const lines = pages.map((shown) => {
    const byY = new Map<number, Shown[]>();
    for (const s of shown) byY.set(Math.round(s.y), [...(byY.get(Math.round(s.y)) ?? []), s]);
    return [...byY.entries()].sort((a, b) => b[0] - a[0]).map(([, row]) => row.sort((a, b) => a.x - b.x).map((s) => s.text).join(' '));
  });
  return { doc, pages, lines };
}

const fixture = buildReport('audit', fixtureInput());

/** The fixture report with its first section's tables replaced by `tables`. */
function withTables(tables: ReportTable[], notes: string[] = []): ReturnType<typeof buildReport> {
  const m: ReportModel = structuredClone(fixture);
  m.sections = [{ ...(m.sections[0] as ReportModel['sections'][number]), tables }];
  m.notes = notes;
  return redact(m);
}

const table = (id: string, columns: Array<[string, ReportTable['columns'][number]['type']]>, rows: ReportTable['rows']): ReportTable => ({
  id,
  title: `Table ${id}`,
  columns: columns.map(([cid, type]) => ({ id: cid, label: cid.toUpperCase(), type })),
  rows,
  key: [],
});

describe('the report PDF, written from the model without a browser', () => {
  let read: ReadPdf;
  let text: string;
  beforeAll(async () => {
    read = await readPdf(await writeReportPdf(fixture));
    text = read.lines.flat().join('\n');
  });

  it('shows every section, table, data age, note and value of the report', () => {
    for (const s of fixture.sections) {
      expect(text).toContain(s.title);
      for (const t of s.tables) expect(text, t.id).toContain(t.title);
    }
    for (const n of fixture.notes) expect(text.replace(/\n/g, ' ')).toContain(n.slice(0, 60));
    expect(text).toContain('West DC / gamma stale — no data cached');
    expect(text).toContain('West DC / beta unreachable 2025-01-14T00:00:00.000Z 1.5 d');
    // Values as the reader sees them: units, yes/no, — for nothing; hostile values as plain text.
    expect(text).toContain('10.0 TiB');
    expect(text).toContain('<script>alert(1)</script> OLTP');
    expect(text).toContain('=HYPERLINK("http://evil")');
    expect(read.doc.getTitle()).toBe(fixture.title);
    expect(read.doc.getCreationDate()?.toISOString()).toBe(fixture.generatedAt);
  });

  it('numbers every page "Page n of N" beside the report title and time', () => {
    const total = read.pages.length;
    expect(total).toBeGreaterThan(fixture.sections.length);
    read.lines.forEach((lines, i) => expect(lines.at(-1)).toBe(`${fixture.title} · ${fixture.generatedAt} Page ${i + 1} of ${total}`));
  });

  it('starts each section on a new page, and opens on an outline of sections and tables pointing at their headings', () => {
    const pageIndex = new Map(read.doc.getPages().map((p, i) => [p.ref.toString(), i]));
    const dests = read.doc.catalog.lookup(PDFName.of('Dests'), PDFDict);
    const pageOf = (name: PDFName): number => {
      const ref = dests.lookup(name, PDFArray).get(0);
      const index = ref instanceof PDFRef ? pageIndex.get(ref.toString()) : undefined;
      if (index === undefined) throw new Error(`destination ${name.toString()} points at no page`);
      return index;
    };
    expect(read.doc.catalog.get(PDFName.of('PageMode'))).toBe(PDFName.of('UseOutlines'));
    const items = (first: PDFDict | undefined): PDFDict[] => {
      const out: PDFDict[] = [];
      for (let item = first; item; item = item.lookupMaybe(PDFName.of('Next'), PDFDict)) out.push(item);
      return out;
    };
    const title = (item: PDFDict): string => (item.lookup(PDFName.of('Title')) as PDFHexString).decodeText();
    const top = items(read.doc.catalog.lookup(PDFName.of('Outlines'), PDFDict).lookupMaybe(PDFName.of('First'), PDFDict));
    expect(top.map(title)).toEqual(fixture.sections.map((s) => s.title));
    for (const [i, section] of fixture.sections.entries()) {
      const item = top[i] as PDFDict;
      const page = pageOf(item.lookup(PDFName.of('Dest'), PDFName));
      // The section's title is the first line of its page.
      expect(read.lines[page]?.[0]).toBe(section.title);
      const children = items(item.lookupMaybe(PDFName.of('First'), PDFDict));
      expect(children.map(title)).toEqual([...(section.dataAges.length ? ['Data age'] : []), ...section.tables.map((t) => t.title)]);
      for (const child of children) {
        const at = pageOf(child.lookup(PDFName.of('Dest'), PDFName));
        expect(at).toBeGreaterThanOrEqual(page);
        expect(read.lines[at]).toContain(title(child));
      }
    }
    // The contents on page 1 link to every section and table heading.
    const links = read.doc.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray).asArray().map((a) => read.doc.context.lookup(a, PDFDict).lookup(PDFName.of('Dest'), PDFName));
    expect(links.length).toBe(fixture.sections.reduce((k, s) => k + 1 + (s.dataAges.length ? 1 : 0) + s.tables.length, 0));
    expect(new Set(links.map(pageOf)).size).toBeGreaterThan(fixture.sections.length);
  });

  it('sets numbers right-aligned, wide tables in small type, risks in bold', async () => {
    const m = withTables([
      table('n', [['name', 'text'], ['count', 'number']], [['a', 7], ['b', 123456], ['c', null]]),
      table('w', Array.from({ length: 10 }, (_x, i) => [`c${i}`, 'text'] as [string, 'text']), [Array.from({ length: 10 }, (_x, i) => `v${i}`)]),
      table('r', [['disk', 'text'], ['risk', 'text']], [['sda', 'critical'], ['sdb', 'ok']]),
    ]);
    const shown = (await readPdf(await writeReportPdf(m))).pages.flat();
    const cell = (t: string): Shown => shown.find((s) => s.text === t) as Shown;
    // The right edges of 7 and 123456 line up; their left edges do not.
    expect(cell('7').x + cell('7').width).toBeCloseTo(cell('123456').x + cell('123456').width, 1);
    expect(cell('7').x).toBeGreaterThan(cell('123456').x);
    expect(cell('a').x).toBeCloseTo(cell('b').x, 1);
    expect(cell('v0').size).toBe(7);
    expect(cell('a').size).toBe(9);
    expect(cell('critical').font).toBe('F2');
    expect(cell('ok').font).toBe('F1');
  });

  it('repeats a long table\'s header row on every page it continues on, and loses no row', async () => {
    const rows = Array.from({ length: 400 }, (_x, i) => [`row-${i}`, i]);
    const read400 = await readPdf(await writeReportPdf(withTables([table('long', [['name', 'text'], ['n', 'number']], rows)])));
    const pagesWithRows = read400.lines.filter((lines) => lines.some((l) => l.startsWith('row-')));
    expect(pagesWithRows.length).toBeGreaterThan(3);
    for (const lines of pagesWithRows) {
      const firstRow = lines.findIndex((l) => l.startsWith('row-'));
      expect(lines[firstRow - 1]).toBe('NAME N');
    }
    const seen = read400.lines.flat().filter((l) => l.startsWith('row-'));
    expect(seen).toEqual(rows.map(([name, n]) => `${name} ${n}`));
  });

  it('wraps long text within its column, and cuts a row taller than a page across pages without losing a word', async () => {
    const words = Array.from({ length: 2500 }, (_x, i) => `word${i}`);
    const long = words.join(' ');
    const hash = 'f'.repeat(300);
    const out = await readPdf(await writeReportPdf(withTables([table('t', [['k', 'text'], ['v', 'text']], [['hash', hash], ['long', long], ['after', 'end']])])));
    const cells = out.pages.flat().filter((s) => /^(word|f{2})/.test(s.text));
    for (const s of cells) expect(s.x + s.width).toBeLessThanOrEqual(297 * (72 / 25.4) - 10 * (72 / 25.4) + 0.01);
    expect(cells.filter((s) => s.text.startsWith('f')).map((s) => s.text).join('')).toBe(hash);
    expect(cells.filter((s) => s.text.startsWith('word')).map((s) => s.text).join(' ')).toBe(long);
    expect(new Set(out.pages.flatMap((p, i) => (p.some((s) => s.text.startsWith('word')) ? [i] : []))).size).toBeGreaterThan(1);
    expect(out.lines.flat()).toContain('after end');
  });

  it('writes a hostile value as text: it cannot end the string or add an operator', async () => {
    const hostile = 'x) Tj ET BT /F2 40 Tf 1 0 0 1 0 0 Tm (pwned) Tj ET BT (\\) \\\\';
    const out = await readPdf(await writeReportPdf(withTables([table('h', [['v', 'text']], [[hostile]])])));
    const all = out.pages.flat();
    expect(all.map((s) => s.text)).toContain(hostile);
    expect(all.some((s) => s.text === 'pwned' || s.size === 40)).toBe(false);
  });

  it('writes characters the standard fonts lack as U+XXXX, keeps the ones they have, and says so first', async () => {
    const m = withTables([table('u', [['v', 'text']], [['Zürich · 5 µs · €'], ['東京 🚀'], ['≥ 80 %']])]);
    const out = await readPdf(await writeReportPdf(m));
    const lines = out.lines.flat();
    expect(lines).toContain('Zürich · 5 µs · €');
    expect(lines).toContain('U+6771U+4EAC U+1F680');
    expect(lines).toContain('>= 80 %');
    expect(lines.join(' ')).toMatch(/Characters the PDF's standard fonts cannot show are written as their Unicode code points \(U\+4EAC, U\+6771, U\+1F680\); the HTML and JSON exports hold the original text\./);
    // Without such characters there is no such note.
    expect((await readPdf(await writeReportPdf(withTables([table('a', [['v', 'text']], [['ascii']])])))).lines.flat().join(' ')).not.toMatch(/Unicode code points/);
  });

  it('lets other work run while it lays out a large report (the main process keeps answering)', async () => {
    const m = withTables([table('y', [['v', 'text']], Array.from({ length: 400 }, (_x, i) => [`row-${i}`]))]);
    /** How many times other queued work ran while the report was written. */
    const turnsWhile = async (rowsPerSlice: number): Promise<number> => {
      let turns = 0;
      let done = false;
      const tick = (): void => {
        if (done) return;
        turns++;
        setImmediate(tick);
      };
      setImmediate(tick);
      await writeReportPdf(m, { rowsPerSlice });
      done = true;
      return turns;
    };
    const inOneGo = await turnsWhile(1_000_000);
    expect(await turnsWhile(50)).toBeGreaterThanOrEqual(inOneGo + 400 / 50 - 1);
  });
});
