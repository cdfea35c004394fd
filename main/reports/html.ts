import { formatAge, formatBytes, formatPercent } from '../../app/reports/format.js';
import type { Cell, Column, ReportModel, ReportSection, ReportTable } from '../../app/reports/model.js';
import type { Redacted } from '../../app/redact.js';

/**
 * Renders a report as one self-contained HTML document: inline CSS, no script, no external
 * reference (a CSP meta tag forbids any load, so a hostile value in a cell cannot fetch or run
 * anything even if escaping failed). Printed from a browser it numbers its pages itself.
 */
export function renderHtml(m: Redacted<ReportModel>): string {
  const b = blocks(m);
  return documentHtml(m, [...b.front, ...b.sections].join('\n'), true);
}

/** A report's print documents (see {@link renderPdfParts}) and the anchors its outline points to. */
export interface PdfParts {
  /** Self-contained HTML documents, in reading order; each starts on a new page. */
  documents: string[];
  /** The bookmarks: one per section, its tables below it. `dest` is an element id in the documents. */
  outline: OutlineEntry[];
}

/** One bookmark of the PDF outline. */
export interface OutlineEntry {
  title: string;
  /** Element id of the heading: the named destination. */
  dest: string;
  /** Index of the document the heading is in. */
  part: number;
  children: OutlineEntry[];
}

/**
 * The report as up to `maxParts` HTML documents for printing to PDF in parallel: the documents
 * are cut only between sections, which start on a new page anyway, so the merged PDF has the
 * pages one document would have. Parts are balanced by size (the print time follows it). Page
 * numbers are left out: they are stamped after merging, when the page count is known.
 */
export function renderPdfParts(m: Redacted<ReportModel>, maxParts: number): PdfParts {
  const b = blocks(m);
  // The front matter travels with the first section; the cut points fall between sections.
  const items = b.sections.length ? [[...b.front, b.sections[0]].join('\n'), ...b.sections.slice(1)] : [b.front.join('\n')];
  const groups = balancedGroups(items.map((x) => x.length), Math.max(1, Math.floor(maxParts)));
  const partOf = (section: number): number => groups.findIndex(([from, to]) => section >= from && section < to);
  const outline: OutlineEntry[] = m.sections.map((s, i) => {
    const part = partOf(i);
    return {
      title: s.title,
      dest: s.id,
      part,
      children: [...(s.dataAges.length ? [{ title: 'Data age', dest: agesId(s), part, children: [] }] : []), ...s.tables.map((t) => ({ title: t.title, dest: tableId(t), part, children: [] }))],
    };
  });
  const entries = outline.flatMap((e) => [e, ...e.children]);
  return {
    documents: groups.map(([from, to], part) => {
      // Chromium names a destination only when the same document links to it, and drops a link
      // whose target is not in the document. So, in a box of no size: an empty link to each
      // heading of this part, and an empty target for each heading of the others (the contents
      // on page 1 links to them; the merge points those names at the part holding the heading).
      const anchors = entries.map((e) => (e.part === part ? `<a href="#${esc(e.dest)}"></a>` : `<span id="${esc(e.dest)}"></span>`)).join('');
      return documentHtml(m, `${items.slice(from, to).join('\n')}\n<div class="anchors" aria-hidden="true">${anchors}</div>`, false);
    }),
    outline,
  };
}

/**
 * Cuts `sizes` into at most `parts` contiguous groups so that the largest group is as small as
 * possible (exact: a handful of sections). Returns [from, to) index pairs, none empty.
 */
export function balancedGroups(sizes: readonly number[], parts: number): Array<[number, number]> {
  const n = sizes.length;
  const k = Math.min(parts, n);
  if (k <= 1) return n ? [[0, n]] : [];
  const prefix = [0];
  for (const x of sizes) prefix.push((prefix.at(-1) as number) + x);
  const sum = (a: number, b: number): number => (prefix[b] as number) - (prefix[a] as number);
  // best[j][i]: smallest possible largest group when the first i sizes form j groups.
  const best: number[][] = Array.from({ length: k + 1 }, () => new Array<number>(n + 1).fill(Infinity));
  const cut: number[][] = Array.from({ length: k + 1 }, () => new Array<number>(n + 1).fill(0));
  (best[0] as number[])[0] = 0;
  for (let j = 1; j <= k; j++) {
    for (let i = j; i <= n; i++) {
      for (let c = j - 1; c < i; c++) {
        const v = Math.max((best[j - 1] as number[])[c] as number, sum(c, i));
        if (v < ((best[j] as number[])[i] as number)) {
          (best[j] as number[])[i] = v;
          (cut[j] as number[])[i] = c;
        }
      }
    }
  }
  const out: Array<[number, number]> = [];
  for (let j = k, i = n; j >= 1; j--) {
    const c = (cut[j] as number[])[i] as number;
    out.unshift([c, i]);
    i = c;
  }
  return out;
}

/** The body of a report: front matter (header, notes, contents linking sections and tables), then one block per section. */
function blocks(m: ReportModel): { front: string[]; sections: string[] } {
  const multi = m.sections.length > 1;
  const contents = multi || m.sections.some((s) => s.tables.length > 1);
  return {
    front: [
      `<header><h1>${esc(m.title)}</h1>${meta(m)}</header>`,
      m.notes.length ? `<section class="notes"><h2>Read first</h2><ul>${m.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></section>` : '',
      contents ? `<nav><h2>Contents</h2><ol>${m.sections.map(contentsEntry).join('')}</ol></nav>` : '',
    ],
    sections: m.sections.map((s) => section(s, multi)),
  };
}

function contentsEntry(s: ReportSection): string {
  const sub = [...(s.dataAges.length ? [link(agesId(s), 'Data age')] : []), ...s.tables.map((t) => link(tableId(t), t.title))];
  return `<li>${link(s.id, s.title)}${sub.length ? `<ol>${sub.map((x) => `<li>${x}</li>`).join('')}</ol>` : ''}</li>`;
}

function link(id: string, text: string): string {
  return `<a href="#${esc(id)}">${esc(text)}</a>`;
}

/** Element ids of the headings (what the contents links and the PDF outline point to). */
const agesId = (s: ReportSection): string => `${s.id}.data-age`;
const tableId = (t: ReportTable): string => t.id;

function documentHtml(m: ReportModel, body: string, pageCounter: boolean): string {
  const css = CSS.replace('__FOOTER__', cssString(`${m.title} · ${m.generatedAt}`)).replace('__PAGE__', pageCounter ? PAGE_COUNTER : '');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="generator" content="Fleetdeck ${esc(m.appVersion)}">
<title>${esc(m.title)} — ${esc(m.generatedAt)}</title>
<style>${css}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** Where the page number sits; the PDF stamps the same text there after merging (see pdf-merge.ts). */
const PAGE_COUNTER = '@bottom-right { content: "Page " counter(page) " of " counter(pages); font: 7pt system-ui, sans-serif; color: #555; }';

const CSS = `
@page { size: A4 landscape; margin: 12mm 10mm 14mm 10mm;
  @bottom-left { content: "__FOOTER__"; font: 7pt system-ui, sans-serif; color: #555; }
  __PAGE__ }
* { box-sizing: border-box; }
body { font: 9pt/1.35 system-ui, "DejaVu Sans", Arial, sans-serif; color: #111; margin: 0 auto; max-width: 1400px; padding: 8px; }
h1 { font-size: 17pt; margin: 0 0 6px; }
h2 { font-size: 13pt; margin: 14px 0 4px; border-bottom: 1px solid #999; }
h3 { font-size: 10.5pt; margin: 12px 0 3px; }
p.desc { margin: 2px 0 6px; color: #333; }
table { border-collapse: collapse; width: 100%; margin: 2px 0 8px; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
th, td { border: 1px solid #bbb; padding: 2px 4px; text-align: left; vertical-align: top; overflow-wrap: break-word; }
th { background: #eee; font-weight: 600; }
/* Short values (names, states, times) stay on one line; long text (class wrap) wraps instead of them. */
td { white-space: nowrap; }
td.wrap, td.break, table.meta td { white-space: normal; }
td.num { text-align: right; }
td.none { color: #888; }
td.break { word-break: break-all; }
td.critical { background: #f9d6d5; font-weight: 600; }
td.warning { background: #fcefc7; }
/* Unknown: SMART text the app could not read; marked so it is not taken for ok. */
td.unknown { background: #e4e4e4; font-style: italic; }
table.meta { width: auto; }
table.wide { font-size: 7pt; }
table.wide th, table.wide td { padding: 1px 3px; }
table.meta th { text-align: left; width: 11em; }
.notes { border: 1px solid #c9a227; background: #fffbea; padding: 2px 10px; margin: 8px 0; }
.empty { color: #555; font-style: italic; margin: 2px 0 8px; }
section.part { break-before: page; }
a { color: inherit; }
/* The page margins frame the print: no body padding, which would also only pad the first page of a part. */
@media print { body { padding: 0; } }
.anchors { position: absolute; width: 0; height: 0; overflow: hidden; }
nav > ol { columns: 2; column-gap: 24px; margin: 4px 0; }
nav li { break-inside: avoid; }
nav ol ol { margin: 0 0 4px; padding-left: 1.4em; }
`;

function meta(m: ReportModel): string {
  const rows: Array<[string, string]> = [
    ['Generated', m.generatedAt],
    ['Generated by', m.generatedBy],
    ['Fleetdeck version', m.appVersion],
    ['Data source', m.source === 'fresh' ? 'fresh refresh, offline cache for unreachable systems' : 'offline cache only'],
    ['Sites', m.scope.sites.map((s) => s.name).join(', ') || '—'],
    ['Systems', String(m.scope.systems.length)],
  ];
  if (m.sections.some((s) => s.kind === 'actions')) {
    rows.push(['Action log period', `${m.period.since ?? 'first record'} – ${m.period.until ?? 'now'}`]);
  }
  return `<table class="meta">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;
}

function section(s: ReportSection, multi: boolean): string {
  return `<section id="${esc(s.id)}"${multi ? ' class="part"' : ''}>
<h2>${esc(s.title)}</h2>
<p class="desc">${esc(s.description)}</p>
${s.dataAges.length ? ages(s) : ''}
${s.tables.map(table).join('\n')}
</section>`;
}

function ages(s: ReportSection): string {
  const rows = s.dataAges
    .map((a) => {
      const age = a.ageSeconds === null ? 'no data cached' : formatAge(a.ageSeconds);
      return `<tr>${siteSystemCell(a.siteName, a.system)}<td>${esc(a.state)}</td><td>${esc(a.at ?? '—')}</td><td${a.at === null ? ' class="critical"' : ''}>${esc(age)}</td></tr>`;
    })
    .join('');
  return `<h3 id="${esc(agesId(s))}">Data age</h3><table><thead><tr><th>Site / system</th><th>State</th><th>Data as of</th><th>Age</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function table(t: ReportTable): string {
  const head = `<h3 id="${esc(tableId(t))}">${esc(t.title)}</h3>`;
  if (!t.rows.length) return `${head}<p class="empty">${esc(t.empty ?? 'Nothing to show.')}</p>`;
  // Site and system in one cell: every row keeps saying which system it is about, and the printed
  // table has a ninth fewer cells (Chromium's print time follows the number of cells, not the text).
  const joined = t.columns[0]?.id === 'site' && t.columns[1]?.id === 'system';
  const columns = joined ? t.columns.slice(2) : t.columns;
  const th = `${joined ? `<th>${esc(t.columns[0]?.label ?? 'Site')} / ${esc((t.columns[1]?.label ?? 'system').toLowerCase())}</th>` : ''}${columns.map((c) => `<th>${esc(c.label)}</th>`).join('')}`;
  const rows = t.rows
    .map((r) => {
      const cells = joined ? r.slice(2) : r;
      const where = joined ? siteSystemCell(r[0] ?? null, r[1] ?? null) : '';
      return `<tr>${where}${columns.map((c, i) => td(c, cells[i] ?? null)).join('')}</tr>`;
    })
    .join('\n');
  // Many columns: smaller type and tighter cells, so the table fits the page width. A table wider
  // than the page makes Chromium shrink the whole printed document (or, printed in parts, its part).
  return `${head}<table${columns.length + (joined ? 1 : 0) >= WIDE_COLUMNS ? ' class="wide"' : ''}><thead><tr>${th}</tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

/** From this many columns on, a table is set smaller and tighter. */
const WIDE_COLUMNS = 10;

/** `site / system` in one cell (either may be missing). */
function siteSystemCell(site: Cell, system: Cell): string {
  const parts = [site, system].filter((v) => v !== null && v !== '').map(String);
  return parts.length ? `<td>${esc(parts.join(' / '))}</td>` : '<td class="none">—</td>';
}

function td(c: Column, v: Cell): string {
  if (v === null || v === '') return '<td class="none">—</td>';
  const cls: string[] = [];
  if (typeof v === 'number') cls.push('num');
  if (c.id === 'risk' && (v === 'critical' || v === 'warning' || v === 'unknown')) cls.push(v);
  if (c.id === 'intact' && v === false) cls.push('critical');
  // A long unbroken token (a hash, JSON parameters) would push the table off the printed page.
  if (typeof v === 'string' && /\S{32,}/.test(v)) cls.push('break');
  // Short values stay on one line (the default, so most cells carry no class); long text wraps.
  else if (typeof v === 'string' && v.length > 24) cls.push('wrap');
  return `<td${cls.length ? ` class="${cls.join(' ')}"` : ''}>${esc(cellText(c, v))}</td>`;
}

/** A cell as shown to a reader (HTML and PDF): units, yes/no, `—` for nothing. */
export function cellText(c: Column, v: Cell): string {
  if (v === null) return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') {
    if (c.type === 'bytes') return formatBytes(v);
    if (c.type === 'percent') return formatPercent(v);
    return String(v);
  }
  return v;
}

/** Escapes text for HTML content and attribute values. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);
}

/** A value safe inside a CSS double-quoted string (the page footer). */
function cssString(s: string): string {
  return s.replace(/[\\"\n\r<>]/g, (ch) => `\\${ch.charCodeAt(0).toString(16)} `);
}
