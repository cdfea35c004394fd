import { deflateSync } from 'node:zlib';
import type * as PdfLibModule from 'pdf-lib';
import type { PDFDict, PDFDocument, PDFFont, PDFPage, PDFPageTree, PDFRef } from 'pdf-lib';
import type { Redacted } from '../../app/redact.js';
import type { Cell, ReportModel, ReportSection, ReportTable } from '../../app/reports/model.js';
import { ageText, agesId, cellMarks, cellText, LONG_TEXT, metaRows, shownColumns, siteSystemText, tableId, WIDE_COLUMNS } from './html.js';

type PdfLib = typeof PdfLibModule;

/**
 * The report PDF, written directly from the model with pdf-lib: no browser, whose print would lay out
 * and paint thousands of table rows in Blink, page by page. This lays out the same content itself — A4 landscape, the HTML export's typography (9 pt text,
 * 7 pt for wide tables, bold headers on grey, numbers right-aligned, risks marked), every section on
 * a new page, table headers repeated on every page, columns sized from measured text, long cells
 * wrapped — with the contents linked, an outline, and `Page n of N`, in one pass.
 *
 * It uses the PDF standard fonts (Helvetica), so no font file ships with the app; they encode
 * WinAnsi only. A character outside it is written as `U+XXXX` and the front matter says so (the
 * HTML and JSON exports keep the original text).
 */

/** One bookmark of the PDF outline: a named destination and the bookmarks below it. */
export interface OutlineEntry {
  title: string;
  /** The named destination (a heading's id, as in the HTML export). */
  dest: string;
  children: OutlineEntry[];
}

/** The timed steps of {@link writeReportPdf} (the bench reports them). */
export interface PdfPhase {
  phase: 'layout' | 'save';
  ms: number;
  /** Pages laid out (with `layout`). */
  pages?: number;
}

export interface PdfWriteOptions {
  /** The stamped page label, default `Page 3 of 120`. */
  pageLabel?: (page: number, pages: number) => string;
  onPhase?: (p: PdfPhase) => void;
  /** Rows laid out between two yields to the event loop, so the main process keeps answering. */
  rowsPerSlice?: number;
}

const MM = 72 / 25.4;
const PAGE_W = 297 * MM;
const PAGE_H = 210 * MM;
/** The HTML's `@page` margins: 12 mm 10 mm 14 mm 10 mm. */
const LEFT = 10 * MM;
const RIGHT = PAGE_W - 10 * MM;
const TOP = PAGE_H - 12 * MM;
const BOTTOM = 14 * MM;
const WIDTH = RIGHT - LEFT;
const FOOTER_SIZE = 7;
/**
 * zlib's fastest level: page content is repetitive operator text, which level 1 already shrinks
 * about 5-fold; the default level took a fifth of the writer's CPU for a few percent smaller files.
 */
const DEFLATE_LEVEL = 1;
const FOOTER_BASELINE = BOTTOM * 0.5 - FOOTER_SIZE * 0.35;
/** CSS px in points. */
const PX = 0.75;
const LEADING = 1.35;

type FontKey = 'F1' | 'F2' | 'F3';
const REGULAR: FontKey = 'F1';
const BOLD: FontKey = 'F2';
const ITALIC: FontKey = 'F3';
type Rgb = readonly [number, number, number];
const hex = (h: number): Rgb => [((h >> 16) & 255) / 255, ((h >> 8) & 255) / 255, (h & 255) / 255];
const INK = hex(0x111111);
const GREY_TEXT = hex(0x555555);
const DESC = hex(0x333333);
const NONE = hex(0x888888);
const RULE = hex(0x999999);
const BORDER = hex(0xbbbbbb);
const HEAD_BG = hex(0xeeeeee);
const RISK_BG: Record<'critical' | 'warning' | 'unknown', Rgb> = { critical: hex(0xf9d6d5), warning: hex(0xfcefc7), unknown: hex(0xe4e4e4) };
const NOTES_BG = hex(0xfffbea);
const NOTES_BORDER = hex(0xc9a227);

/**
 * Unicode to the bytes of the standard fonts' WinAnsi encoding, with the glyph widths of each
 * font; a character it cannot encode becomes `U+XXXX` and is remembered for the front matter.
 */
class Encoder {
  private readonly bytes = new Map<number, string>();
  private readonly widths: Record<FontKey, Float64Array>;
  readonly replaced = new Set<number>();

  constructor(fonts: Record<FontKey, PDFFont>) {
    this.widths = { F1: new Float64Array(256), F2: new Float64Array(256), F3: new Float64Array(256) };
    for (const cp of fonts.F1.getCharacterSet()) {
      const ch = String.fromCodePoint(cp);
      // The font's own encoder says which byte a character is (its hex string, `<E4>`).
      const byte = Number.parseInt(fonts.F1.encodeText(ch).toString().slice(1, -1), 16);
      if (!Number.isInteger(byte) || byte < 0x20 || byte > 0xff) continue;
      this.bytes.set(cp, String.fromCharCode(byte));
      for (const key of [REGULAR, BOLD, ITALIC]) this.widths[key][byte] = fonts[key].widthOfTextAtSize(ch, 1000);
    }
  }

  /** `text` as WinAnsi bytes (one char per byte); control characters become spaces. */
  encode(text: string): string {
    // Most values are plain ASCII: nothing to map.
    if (/^[\x20-\x7e]*$/.test(text)) return text;
    let out = '';
    for (const ch of text) {
      const cp = ch.codePointAt(0) as number;
      const b = this.bytes.get(cp);
      const ascii = b === undefined ? ASCII_FOR[ch] : undefined;
      if (b !== undefined) out += b;
      else if (ascii !== undefined) out += ascii;
      else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) out += ' ';
      else {
        this.replaced.add(cp);
        out += codePointName(cp);
      }
    }
    return out;
  }

  /** Width of encoded text, points. */
  width(encoded: string, font: FontKey, size: number): number {
    const w = this.widths[font];
    let sum = 0;
    for (let i = 0; i < encoded.length; i++) sum += w[encoded.charCodeAt(i)] as number;
    return (sum * size) / 1000;
  }
}

/** Signs of the app's own texts (`≥ 80 %`) that WinAnsi lacks but plain ASCII says as well. */
const ASCII_FOR: Readonly<Record<string, string>> = { '≥': '>=', '≤': '<=', '≠': '!=', '→': '->', '←': '<-', '−': '-', '\u00a0': ' ', '\u2009': ' ', '\u202f': ' ' };

/** How a character the standard fonts cannot show is written instead. */
export function codePointName(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** In a PDF string literal of encoded text only `(`, `)` and `\` need escaping; there are no control bytes. */
const PDF_SPECIAL = /[()\\]/;
const PDF_SPECIALS = /[()\\]/g;

/**
 * A number as PDF operator text, to 2 decimals. Kept per value: a table's rows sit at the same
 * heights on every page and its cells at the same columns, so a large pack writes a few thousand
 * distinct numbers a million times.
 */
const numberText = new Map<number, string>();
const n = (x: number): string => {
  const hundredths = Math.round(x * 100);
  let t = numberText.get(hundredths);
  if (t === undefined) numberText.set(hundredths, (t = (hundredths / 100).toString()));
  return t;
};
/** Operator text of each colour, written once: every cell's text, fill and rule names one (a million times in a large pack). */
const rgbText = new WeakMap<Rgb, string>();
const rgb = (c: Rgb): string => {
  let t = rgbText.get(c);
  if (t === undefined) rgbText.set(c, (t = `${n(c[0])} ${n(c[1])} ${n(c[2])}`));
  return t;
};
const fillOps = new WeakMap<Rgb, string>();
/** `r g b rg`: the fill (text) colour operator. */
const fillOp = (c: Rgb): string => {
  let t = fillOps.get(c);
  if (t === undefined) fillOps.set(c, (t = `${rgb(c)} rg`));
  return t;
};
/** `/F1 9 Tf` of each font and size, written once. */
const fontOps = new Map<string, string>();
const fontOp = (font: FontKey, size: number): string => {
  const k = `${font}${size}`;
  let t = fontOps.get(k);
  if (t === undefined) fontOps.set(k, (t = `/${font} ${n(size)} Tf`));
  return t;
};

/** One page being written: fills under the lines under the text; links; the fonts it uses. */
interface PageOps {
  page: PDFPage;
  fills: string[];
  lines: string[];
  text: string[];
  font: string;
  color: string;
  /** The page's content stream, once the page is complete (its ops are then dropped). */
  content?: PDFRef;
}

/** A content stream of operators, deflated. */
function contentStream(doc: PDFDocument, ops: string): PDFRef {
  return doc.context.register(doc.context.stream(deflateSync(Buffer.from(ops, 'latin1'), { level: DEFLATE_LEVEL }), { Filter: 'FlateDecode' }));
}

/** A table cell ready to set: encoded text, its font, its marks. */
interface SetCell {
  text: string;
  font: FontKey;
  color: Rgb;
  bg?: Rgb | undefined;
  right: boolean;
  /** Width on one line, and the narrowest it may be set (its longest word, or all of it when short). */
  full: number;
  min: number;
}

/** A table ready to lay out. */
interface SetTable {
  head: SetCell[];
  rows: SetCell[][];
  size: number;
  padX: number;
  padY: number;
  /** Full page width (as the HTML's `width: 100%`), or only as wide as its content. */
  fill: boolean;
}

/** Lays out pages top to bottom; a new page whenever the next thing does not fit. */
class Writer {
  readonly pages: PageOps[] = [];
  readonly dests = new Map<string, { page: PDFPage; top: number }>();
  readonly links: Array<{ page: PDFPage; rect: [number, number, number, number]; dest: string }> = [];
  y = TOP;

  /** The document's page tree, which every page is appended to. */
  private readonly tree: PDFPageTree;
  private readonly treeRef: PDFRef;

  constructor(
    private readonly lib: PdfLib,
    private readonly doc: PDFDocument,
    readonly enc: Encoder,
  ) {
    this.tree = doc.catalog.Pages();
    this.treeRef = doc.catalog.get(lib.PDFName.of('Pages')) as PDFRef;
  }

  get current(): PageOps {
    return this.pages.at(-1) ?? this.newPage();
  }

  newPage(): PageOps {
    const last = this.pages.at(-1);
    if (last) this.complete(last);
    // What `doc.addPage` does, less its walk over every page already in the tree to find the place
    // of the new one (a thousand-page pack spent a second there): the same objects, the same file.
    const page = this.lib.PDFPage.create(this.doc);
    page.setSize(PAGE_W, PAGE_H);
    this.tree.pushLeafNode(page.ref);
    page.node.setParent(this.treeRef);
    const ops: PageOps = { page, fills: [], lines: [], text: [], font: '', color: '' };
    this.pages.push(ops);
    this.y = TOP;
    return ops;
  }

  /**
   * Writes a complete page's content stream and drops its operators, so a report of a thousand
   * pages never holds more than one page's text (only the page number waits for the page count).
   */
  complete(p: PageOps): void {
    if (p.content) return;
    p.content = contentStream(this.doc, `q\n${p.fills.join('\n')}\n${p.lines.join('\n')}\nQ\nBT\n${p.text.join('\n')}\nET\n`);
    p.fills = [];
    p.lines = [];
    p.text = [];
    p.font = '';
    p.color = '';
  }

  /** A new page unless `height` still fits below the current position. */
  ensure(height: number): void {
    if (!this.pages.length || this.y - height < BOTTOM) this.newPage();
  }

  /** A new page, unless the current one is still empty. */
  pageBreak(): void {
    if (!this.pages.length || this.y < TOP) this.newPage();
  }

  dest(name: string): void {
    this.dests.set(name, { page: this.current.page, top: this.y });
  }

  text(x: number, baseline: number, encoded: string, font: FontKey, size: number, color: Rgb, p: PageOps = this.current): void {
    this.textAt(n(x), n(baseline), encoded, font, size, color, p);
  }

  /** {@link text} at a position already written as PDF numbers (a table's columns and lines are the same for every row). */
  textAt(x: string, baseline: string, encoded: string, font: FontKey, size: number, color: Rgb, p: PageOps = this.current): void {
    const f = fontOp(font, size);
    if (p.font !== f) {
      p.text.push(f);
      p.font = f;
    }
    const c = fillOp(color);
    if (p.color !== c) {
      p.text.push(c);
      p.color = c;
    }
    // One string per cell (a large pack sets hundreds of thousands), not a literal and then the operator.
    p.text.push(`1 0 0 1 ${x} ${baseline} Tm (${PDF_SPECIAL.test(encoded) ? encoded.replace(PDF_SPECIALS, '\\$&') : encoded}) Tj`);
  }

  fill(x: number, top: number, w: number, h: number, color: Rgb): void {
    this.current.fills.push(`${rgb(color)} rg ${n(x)} ${n(top - h)} ${n(w)} ${n(h)} re f`);
  }

  line(x1: number, y1: number, x2: number, y2: number, color: Rgb, width: number): void {
    this.current.lines.push(`${rgb(color)} RG ${n(width)} w ${n(x1)} ${n(y1)} m ${n(x2)} ${n(y2)} l S`);
  }

  /** Baseline of a line of `size` type set in a box of `leading` whose top is `top`: the glyphs centred. */
  static baseline(top: number, size: number): number {
    return top - (size * LEADING) / 2 - size * 0.2555;
  }

  /** A block of wrapped text, breaking pages between its lines. */
  paragraph(text: string, o: { font: FontKey; size: number; color: Rgb; indent?: number; width?: number; before?: number; after?: number; dest?: string; rule?: boolean }): void {
    const x = LEFT + (o.indent ?? 0);
    const lines = wrap(this.enc, this.enc.encode(text), o.font, o.size, o.width ?? RIGHT - x);
    const lh = o.size * LEADING;
    this.ensure((o.before ?? 0) + lh);
    this.y -= o.before ?? 0;
    if (o.dest) this.dest(o.dest);
    for (const l of lines) {
      this.ensure(lh);
      this.text(x, Writer.baseline(this.y, o.size), l, o.font, o.size, o.color);
      this.y -= lh;
    }
    if (o.rule) {
      this.y -= 1;
      this.line(LEFT, this.y, RIGHT, this.y, RULE, PX);
    }
    this.y -= o.after ?? 0;
  }
}

/** Breaks encoded text into lines no wider than `width`: at spaces, and inside a word only when it alone is wider. */
function wrap(enc: Encoder, text: string, font: FontKey, size: number, width: number): string[] {
  if (enc.width(text, font, size) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  const push = (): void => {
    if (line) lines.push(line);
    line = '';
  };
  for (const word of text.split(' ').filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (enc.width(candidate, font, size) <= width) {
      line = candidate;
      continue;
    }
    push();
    if (enc.width(word, font, size) <= width) {
      line = word;
      continue;
    }
    // A token wider than the column (a hash, JSON): cut it where it reaches the edge.
    let piece = '';
    for (const ch of word) {
      if (piece && enc.width(piece + ch, font, size) > width) {
        lines.push(piece);
        piece = '';
      }
      piece += ch;
    }
    line = piece;
  }
  push();
  return lines.length ? lines : [''];
}

/** A cell set like the HTML export's (see `cellMarks`). */
function setCell(enc: Encoder, text: string, o: { font?: FontKey; color?: Rgb; bg?: Rgb | undefined; right?: boolean; long?: 'break' | 'wrap' | undefined; size: number }): SetCell {
  const encoded = enc.encode(text);
  const font = o.font ?? REGULAR;
  const full = enc.width(encoded, font, o.size);
  let min = full;
  if (o.long === 'break') min = Math.min(full, enc.width('MMMMMMMM', font, o.size));
  else if (o.long === 'wrap' || encoded.length > LONG_TEXT) min = Math.max(0, ...encoded.split(' ').map((w) => enc.width(w, font, o.size)));
  return { text: encoded, font, color: o.color ?? INK, bg: o.bg, right: o.right ?? false, full, min };
}

const headCell = (enc: Encoder, label: string, size: number): SetCell => setCell(enc, label, { font: BOLD, bg: HEAD_BG, size, long: 'wrap' });
const noneCell = (enc: Encoder, size: number): SetCell => setCell(enc, '—', { color: NONE, size });

function setTable(enc: Encoder, t: ReportTable): SetTable {
  const { joined, head, columns } = shownColumns(t);
  const wide = head.length >= WIDE_COLUMNS;
  const size = wide ? 7 : 9;
  const rows = t.rows.map((r) => {
    const cells: SetCell[] = [];
    if (joined) {
      const where = siteSystemText(r[0] ?? null, r[1] ?? null);
      cells.push(where === null ? noneCell(enc, size) : setCell(enc, where, { size }));
    }
    const values = joined ? r.slice(2) : r;
    columns.forEach((c, i) => {
      const v: Cell = values[i] ?? null;
      const m = cellMarks(c, v);
      if (m.none) cells.push(noneCell(enc, size));
      else cells.push(setCell(enc, cellText(c, v), { size, right: m.num, long: m.long, ...(m.risk ? { bg: RISK_BG[m.risk], font: m.risk === 'critical' ? BOLD : m.risk === 'unknown' ? ITALIC : REGULAR } : {}) }));
    });
    return cells;
  });
  return { head: head.map((l) => headCell(enc, l, size)), rows, size, padX: (wide ? 3 : 4) * PX, padY: (wide ? 1 : 2) * PX, fill: true };
}

function setAges(enc: Encoder, s: ReportSection): SetTable {
  const size = 9;
  return {
    head: ['Site / system', 'State', 'Data as of', 'Age'].map((l) => headCell(enc, l, size)),
    rows: s.dataAges.map((a) => [
      setCell(enc, siteSystemText(a.siteName, a.system) ?? '—', { size }),
      setCell(enc, a.state, { size }),
      setCell(enc, a.at ?? '—', { size }),
      setCell(enc, ageText(a.ageSeconds), { size, ...(a.at === null ? { bg: RISK_BG.critical, font: BOLD } : {}) }),
    ]),
    size,
    padX: 4 * PX,
    padY: 2 * PX,
    fill: true,
  };
}

/**
 * Column widths as a browser's automatic table layout would give them: every column its widest
 * line when that fits, else its narrowest (longest word; short values never wrap) plus a share of
 * the rest in proportion to how much it would take; narrower still when even that does not fit.
 */
function columnWidths(t: SetTable): number[] {
  const count = t.head.length || (t.rows[0]?.length ?? 0);
  const full = new Array<number>(count).fill(0);
  const min = new Array<number>(count).fill(0);
  for (const row of [t.head, ...t.rows]) {
    for (let i = 0; i < count; i++) {
      const c = row[i];
      if (!c) continue;
      if (c.full > (full[i] as number)) full[i] = c.full;
      if (c.min > (min[i] as number)) min[i] = c.min;
    }
  }
  const pad = 2 * t.padX + 1;
  const maxW = full.map((w) => w + pad);
  const minW = min.map((w) => w + pad);
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  if (sum(maxW) <= WIDTH) {
    if (!t.fill) return maxW;
    const extra = (WIDTH - sum(maxW)) / sum(maxW);
    return maxW.map((w) => w * (1 + extra));
  }
  if (sum(minW) <= WIDTH) {
    const slack = sum(maxW) - sum(minW);
    return minW.map((w, i) => w + ((WIDTH - sum(minW)) * ((maxW[i] as number) - w)) / slack);
  }
  return minW.map((w) => (w * WIDTH) / sum(minW));
}

/**
 * Draws a table from the current position: the header row again at the top of every page it
 * continues on, rows never split unless one alone is taller than a page.
 */
async function drawTable(w: Writer, t: SetTable, rowsPerSlice: number): Promise<void> {
  const widths = columnWidths(t);
  const xs: number[] = [];
  let x = LEFT;
  for (const cw of widths) {
    xs.push(x);
    x += cw;
  }
  const lh = t.size * LEADING;
  const rooms = widths.map((cw) => cw - 2 * t.padX);
  // Most cells fit on one line: their width is known from setting them, no need to measure again,
  // and no array of lines is made for them (`undefined`: the cell's text is its one line).
  const layout = (row: SetCell[]): Array<string[] | undefined> => {
    const lines: Array<string[] | undefined> = new Array<string[] | undefined>(row.length);
    for (let i = 0; i < row.length; i++) {
      const c = row[i] as SetCell;
      const room = rooms[i] as number;
      lines[i] = c.full <= room ? undefined : wrap(w.enc, c.text, c.font, t.size, room);
    }
    return lines;
  };
  const lineCount = (lines: Array<string[] | undefined>): number => {
    let most = 1;
    for (const l of lines) if (l && l.length > most) most = l.length;
    return most;
  };
  // Positions as PDF numbers, written once per table rather than once per cell.
  const ruleX = xs.slice(1).map(n);
  const textX = xs.map((cx) => n(cx + t.padX));
  const gridStart = `${rgb(BORDER)} RG 0.75 w ${n(LEFT)}`;
  const head = layout(t.head);
  const height = (lines: Array<string[] | undefined>): number => lineCount(lines) * lh + 2 * t.padY;
  // A table without a header row (the facts under the title) has nothing to repeat.
  const headH = t.head.length ? height(head) : 0;

  const drawRow = (row: SetCell[], lines: Array<string[] | undefined>, from: number, count: number): void => {
    const h = count * lh + 2 * t.padY;
    const top = w.y;
    const baselines: string[] = [];
    for (let k = 0; k < count; k++) baselines.push(n(Writer.baseline(top - t.padY - k * lh, t.size)));
    for (let i = 0; i < row.length; i++) {
      const c = row[i] as SetCell;
      const cx = xs[i] as number;
      const cw = widths[i] as number;
      if (c.bg) w.fill(cx, top, cw, h, c.bg);
      const cellLines = lines[i];
      for (let k = 0; k < count; k++) {
        const line = cellLines ? cellLines[from + k] : from + k === 0 ? c.text : undefined;
        if (line === undefined) break;
        // A right-aligned line that is the whole cell has the width measured when the cell was set.
        const tx = c.right ? n(cx + cw - t.padX - (cellLines ? w.enc.width(line, c.font, t.size) : c.full)) : (textX[i] as string);
        w.textAt(tx, baselines[k] as string, line, c.font, t.size, c.color);
      }
    }
    // The grid: the row's box and its column rules, one path.
    const right = xs.at(-1) as number;
    const end = right + (widths.at(-1) as number);
    const p = w.current;
    const topS = n(top);
    const bottomS = n(top - h);
    let path = `${gridStart} ${bottomS} ${n(end - LEFT)} ${n(h)} re`;
    for (const rx of ruleX) path += ` ${rx} ${topS} m ${rx} ${bottomS} l`;
    p.lines.push(`${path} S`);
    w.y -= h;
  };
  const header = (): void => {
    if (t.head.length) drawRow(t.head, head, 0, lineCount(head));
  };

  const firstH = t.rows[0] ? height(layout(t.rows[0])) : 0;
  w.ensure(headH + Math.min(firstH, TOP - BOTTOM - headH));
  header();
  for (const [r, row] of t.rows.entries()) {
    if (r > 0 && r % rowsPerSlice === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const lines = layout(row);
    const total = lineCount(lines);
    let from = 0;
    while (from < total) {
      const room = Math.floor((w.y - BOTTOM - 2 * t.padY) / lh);
      const rest = total - from;
      // A row goes whole to the next page; only one taller than a whole page is cut between lines.
      const tallerThanPage = rest * lh + 2 * t.padY > TOP - BOTTOM - headH;
      if (room >= rest || (tallerThanPage && room >= 1)) {
        const count = Math.min(room, rest);
        drawRow(row, lines, from, count);
        from += count;
        if (from >= total) break;
      }
      w.newPage();
      header();
    }
  }
  w.y -= 8 * PX;
}

/**
 * Writes a report (which must come redacted) as a PDF document. The same model gives the same
 * bytes (dates are the report's own), whichever shell or the CLI exports it.
 */
export async function writeReportPdf(m: Redacted<ReportModel>, o: PdfWriteOptions = {}): Promise<Buffer> {
  // Loaded on first use: a large CommonJS library every start of the app, the CLI and the browser
  // shell would otherwise load and compile before answering anything.
  const lib = await import('pdf-lib');
  const rowsPerSlice = Math.max(1, o.rowsPerSlice ?? 400);
  let t = performance.now();
  const doc = await lib.PDFDocument.create({ updateMetadata: false });
  const fonts: Record<FontKey, PDFFont> = {
    F1: doc.embedStandardFont(lib.StandardFonts.Helvetica),
    F2: doc.embedStandardFont(lib.StandardFonts.HelveticaBold),
    F3: doc.embedStandardFont(lib.StandardFonts.HelveticaOblique),
  };
  const enc = new Encoder(fonts);
  const w = new Writer(lib, doc, enc);

  // Everything is encoded before anything is drawn, so the front matter knows whether a character had to be replaced.
  const sections = m.sections.map((s) => ({ s, ages: s.dataAges.length ? setAges(enc, s) : undefined, tables: s.tables.map((table) => ({ table, set: table.rows.length ? setTable(enc, table) : undefined })) }));
  const meta = metaRows(m);
  const metaTable: SetTable = { head: [], rows: meta.map(([k, v]) => [setCell(enc, k, { font: BOLD, bg: HEAD_BG, size: 9 }), setCell(enc, v, { size: 9, long: 'wrap' })]), size: 9, padX: 4 * PX, padY: 2 * PX, fill: false };
  for (const text of [m.title, ...m.notes, ...m.sections.flatMap((s) => [s.title, s.description, ...s.tables.flatMap((x) => [x.title, x.empty ?? ''])])]) enc.encode(text);
  const notes = [...m.notes];
  if (enc.replaced.size) {
    const shown = [...enc.replaced].sort((a, b) => a - b);
    notes.push(
      `Characters the PDF's standard fonts cannot show are written as their Unicode code points (${shown.slice(0, 8).map(codePointName).join(', ')}${shown.length > 8 ? ', …' : ''}); the HTML and JSON exports hold the original text.`,
    );
  }

  // Front matter: title, facts, notes, contents.
  w.paragraph(m.title, { font: BOLD, size: 17, color: INK, after: 6 * PX });
  await drawTable(w, metaTable, rowsPerSlice);
  if (notes.length) drawNotes(w, notes);
  const multi = m.sections.length > 1;
  const outline: OutlineEntry[] = m.sections.map((s) => ({
    title: s.title,
    dest: s.id,
    children: [...(s.dataAges.length ? [{ title: 'Data age', dest: agesId(s), children: [] }] : []), ...s.tables.map((x) => ({ title: x.title, dest: tableId(x), children: [] }))],
  }));
  if (multi || m.sections.some((s) => s.tables.length > 1)) drawContents(w, outline);

  for (const { s, ages, tables } of sections) {
    if (multi) w.pageBreak();
    w.paragraph(s.title, { font: BOLD, size: 13, color: INK, before: 14 * PX, after: 4 * PX, dest: s.id, rule: true });
    w.paragraph(s.description, { font: REGULAR, size: 9, color: DESC, after: 6 * PX });
    if (ages) {
      heading(w, 'Data age', agesId(s));
      await drawTable(w, ages, rowsPerSlice);
    }
    for (const { table, set } of tables) {
      heading(w, table.title, tableId(table));
      if (set) await drawTable(w, set, rowsPerSlice);
      else w.paragraph(table.empty ?? 'Nothing to show.', { font: ITALIC, size: 9, color: GREY_TEXT, after: 8 * PX });
    }
  }

  finishPages(lib, doc, w, fonts, `${m.title} · ${m.generatedAt}`, o.pageLabel ?? ((p, total) => `Page ${p} of ${total}`));
  addOutline(lib, doc, outline, w.dests);
  doc.setTitle(m.title, { showInWindowTitleBar: true });
  doc.setCreator(`Fleetdeck ${m.appVersion}`);
  doc.setProducer(`Fleetdeck ${m.appVersion}`);
  doc.setCreationDate(new Date(m.generatedAt));
  doc.setModificationDate(new Date(m.generatedAt));
  doc.setLanguage('en');
  o.onPhase?.({ phase: 'layout', ms: performance.now() - t, pages: w.pages.length });
  t = performance.now();
  const bytes = Buffer.from(await doc.save({ useObjectStreams: true }));
  o.onPhase?.({ phase: 'save', ms: performance.now() - t });
  return bytes;
}

/** A table's or the data ages' heading, kept on the page with at least the table's first rows. */
function heading(w: Writer, title: string, dest: string): void {
  w.ensure(12 * PX + 10.5 * LEADING + 3 * 9 * LEADING);
  w.paragraph(title, { font: BOLD, size: 10.5, color: INK, before: 12 * PX, after: 3 * PX, dest });
}

/** "Read first": the notes in a framed, tinted box, one bullet each (the box continues across pages). */
function drawNotes(w: Writer, notes: readonly string[]): void {
  const size = 9;
  const lh = size * LEADING;
  const pad = 10 * PX;
  w.ensure(8 * PX + 2 * 13 * LEADING);
  w.y -= 8 * PX;
  let boxTop = w.y;
  const side = (top: number, bottom: number): void => {
    w.fill(LEFT, top, WIDTH, top - bottom, NOTES_BG);
    w.line(LEFT, top, LEFT, bottom, NOTES_BORDER, PX);
    w.line(RIGHT, top, RIGHT, bottom, NOTES_BORDER, PX);
  };
  const close = (): void => side(boxTop, w.y);
  w.line(LEFT, boxTop, RIGHT, boxTop, NOTES_BORDER, PX);
  w.y -= 2 * PX;
  const row = (text: string, font: FontKey, fontSize: number, indent: number, bullet: boolean): void => {
    const lines = wrap(w.enc, w.enc.encode(text), font, fontSize, WIDTH - 2 * pad - indent);
    for (const [i, l] of lines.entries()) {
      const h = fontSize * LEADING;
      if (w.y - h < BOTTOM) {
        close();
        w.newPage();
        boxTop = w.y;
      }
      if (bullet && i === 0) w.text(LEFT + pad, Writer.baseline(w.y, fontSize), '\x95', font, fontSize, INK);
      w.text(LEFT + pad + indent, Writer.baseline(w.y, fontSize), l, font, fontSize, INK);
      w.y -= h;
    }
  };
  row('Read first', BOLD, 13, 0, false);
  for (const note of notes) row(note, REGULAR, size, 1.2 * size, true);
  w.y -= 2 * PX;
  close();
  w.line(LEFT, w.y, RIGHT, w.y, NOTES_BORDER, PX);
  w.y -= lh / 2;
}

/** The contents in two columns, each entry a link to its heading's page. */
function drawContents(w: Writer, outline: readonly OutlineEntry[]): void {
  w.paragraph('Contents', { font: BOLD, size: 13, color: INK, before: 14 * PX, after: 4 * PX, rule: true });
  const size = 9;
  const lh = size * LEADING;
  const gap = 24 * PX;
  const colW = (WIDTH - gap) / 2;
  const entries = outline.flatMap((e, i) => [{ text: `${i + 1}. ${e.title}`, dest: e.dest, indent: 0 }, ...e.children.map((c, j) => ({ text: `${j + 1}. ${c.title}`, dest: c.dest, indent: 1.4 * size + 6 }))]);
  let column = 0;
  let top = w.y;
  let y = w.y;
  for (const e of entries) {
    const lines = wrap(w.enc, w.enc.encode(e.text), REGULAR, size, colW - e.indent);
    const h = lines.length * lh;
    if (y - h < BOTTOM) {
      if (column === 0) {
        column = 1;
        y = top;
      } else {
        w.newPage();
        column = 0;
        top = w.y;
        y = top;
      }
    }
    const x = LEFT + column * (colW + gap) + e.indent;
    let width = 0;
    for (const [i, l] of lines.entries()) {
      w.text(x, Writer.baseline(y - i * lh, size), l, REGULAR, size, INK);
      width = Math.max(width, w.enc.width(l, REGULAR, size));
    }
    w.links.push({ page: w.current.page, rect: [x, y - h, x + width, y], dest: e.dest });
    y -= h;
    w.y = Math.min(w.y, y);
  }
  w.y = Math.min(w.y, y) - 4 * PX;
}

/** Footer and page number on every page, then each page's content stream, fonts, links, and the named destinations. */
function finishPages({ PDFName }: PdfLib, doc: PDFDocument, w: Writer, fonts: Record<FontKey, PDFFont>, footer: string, label: (page: number, pages: number) => string): void {
  const total = w.pages.length;
  const footerText = w.enc.encode(footer);
  for (const [i, p] of w.pages.entries()) {
    w.complete(p);
    // The footer is a second, small stream of the page: the page count is known only now.
    const pageLabel = w.enc.encode(label(i + 1, total));
    w.text(LEFT, FOOTER_BASELINE, footerText, REGULAR, FOOTER_SIZE, GREY_TEXT, p);
    w.text(RIGHT - w.enc.width(pageLabel, REGULAR, FOOTER_SIZE), FOOTER_BASELINE, pageLabel, REGULAR, FOOTER_SIZE, GREY_TEXT, p);
    const foot = contentStream(doc, `BT\n${p.text.join('\n')}\nET\n`);
    p.text = [];
    p.page.node.set(PDFName.of('Contents'), doc.context.obj([p.content as PDFRef, foot]));
    for (const key of [REGULAR, BOLD, ITALIC]) p.page.node.setFontDictionary(PDFName.of(key), fonts[key].ref);
  }
  const dests = doc.context.obj({});
  for (const [name, d] of w.dests) dests.set(PDFName.of(name), doc.context.obj([d.page.ref, 'XYZ', LEFT, d.top + 4, null]));
  if (w.dests.size) doc.catalog.set(PDFName.of('Dests'), doc.context.register(dests));
  for (const l of w.links) {
    const annot = doc.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: l.rect, Border: [0, 0, 0], Dest: PDFName.of(l.dest) });
    l.page.node.addAnnot(doc.context.register(annot));
  }
}

/** Writes /Outlines for the entries whose destination exists (a standard outline tree, PDF 32000-1 §12.3.3). */
function addOutline({ PDFHexString, PDFName, PDFNumber }: PdfLib, doc: PDFDocument, entries: readonly OutlineEntry[], dests: ReadonlyMap<string, unknown>): void {
  const keep = (list: readonly OutlineEntry[]): OutlineEntry[] => list.filter((e) => dests.has(e.dest)).map((e) => ({ ...e, children: keep(e.children) }));
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
