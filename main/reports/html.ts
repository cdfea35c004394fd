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
  return documentHtml(m, [...b.front, ...b.sections].join('\n'));
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
export const agesId = (s: ReportSection): string => `${s.id}.data-age`;
export const tableId = (t: ReportTable): string => t.id;

function documentHtml(m: ReportModel, body: string): string {
  const css = CSS.replace('__FOOTER__', cssString(`${m.title} · ${m.generatedAt}`));
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

const CSS = `
@page { size: A4 landscape; margin: 12mm 10mm 14mm 10mm;
  @bottom-left { content: "__FOOTER__"; font: 7pt system-ui, sans-serif; color: #555; }
  @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 7pt system-ui, sans-serif; color: #555; } }
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
/* The page margins frame the print: no body padding. */
@media print { body { padding: 0; } }
nav > ol { columns: 2; column-gap: 24px; margin: 4px 0; }
nav li { break-inside: avoid; }
nav ol ol { margin: 0 0 4px; padding-left: 1.4em; }
`;

function meta(m: ReportModel): string {
  return `<table class="meta">${metaRows(m).map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;
}

/** The facts under a report's title: who made it, when, from what, covering which sites. */
export function metaRows(m: ReportModel): Array<[string, string]> {
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
  return rows;
}

function section(s: ReportSection, multi: boolean): string {
  return `<section id="${esc(s.id)}"${multi ? ' class="part"' : ''}>
<h2>${esc(s.title)}</h2>
<p class="desc">${esc(s.description)}</p>
${s.dataAges.length ? ages(s) : ''}
${s.tables.map(table).join('\n')}
</section>`;
}

/** A data age as shown: `1.5 d`, or that nothing is cached. */
export function ageText(seconds: number | null): string {
  return seconds === null ? 'no data cached' : formatAge(seconds);
}

function ages(s: ReportSection): string {
  const rows = s.dataAges
    .map((a) => {
      const age = ageText(a.ageSeconds);
      return `<tr>${siteSystemCell(a.siteName, a.system)}<td>${esc(a.state)}</td><td>${esc(a.at ?? '—')}</td><td${a.at === null ? ' class="critical"' : ''}>${esc(age)}</td></tr>`;
    })
    .join('');
  return `<h3 id="${esc(agesId(s))}">Data age</h3><table><thead><tr><th>Site / system</th><th>State</th><th>Data as of</th><th>Age</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function table(t: ReportTable): string {
  const head = `<h3 id="${esc(tableId(t))}">${esc(t.title)}</h3>`;
  if (!t.rows.length) return `${head}<p class="empty">${esc(t.empty ?? 'Nothing to show.')}</p>`;
  const { joined, head: labels, columns } = shownColumns(t);
  const th = labels.map((l) => `<th>${esc(l)}</th>`).join('');
  const rows = t.rows
    .map((r) => {
      const cells = joined ? r.slice(2) : r;
      const where = joined ? siteSystemCell(r[0] ?? null, r[1] ?? null) : '';
      return `<tr>${where}${columns.map((c, i) => td(c, cells[i] ?? null)).join('')}</tr>`;
    })
    .join('\n');
  // Many columns: smaller type and tighter cells, so the table fits the page width. A table wider
  // than the page makes a browser shrink the whole printed document.
  return `${head}<table${columns.length + (joined ? 1 : 0) >= WIDE_COLUMNS ? ' class="wide"' : ''}><thead><tr>${th}</tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

/** From this many columns on, a table is set smaller and tighter. */
export const WIDE_COLUMNS = 10;

/** `site / system` in one cell (either may be missing). */
function siteSystemCell(site: Cell, system: Cell): string {
  const text = siteSystemText(site, system);
  return text === null ? '<td class="none">—</td>' : `<td>${esc(text)}</td>`;
}

/** `site / system` as one value, null when both are missing. */
export function siteSystemText(site: Cell, system: Cell): string | null {
  const parts = [site, system].filter((v) => v !== null && v !== '').map(String);
  return parts.length ? parts.join(' / ') : null;
}

/**
 * The columns a table is shown with: site and system in one column when a table starts with
 * both, so every row keeps saying which system it is about with a ninth fewer cells.
 */
export function shownColumns(t: ReportTable): { joined: boolean; head: string[]; columns: Column[] } {
  const joined = t.columns[0]?.id === 'site' && t.columns[1]?.id === 'system';
  const columns = joined ? t.columns.slice(2) : t.columns;
  const head = [...(joined ? [`${t.columns[0]?.label ?? 'Site'} / ${(t.columns[1]?.label ?? 'system').toLowerCase()}`] : []), ...columns.map((c) => c.label)];
  return { joined, head, columns };
}

function td(c: Column, v: Cell): string {
  const mark = cellMarks(c, v);
  if (mark.none) return '<td class="none">—</td>';
  const cls: string[] = [];
  if (mark.num) cls.push('num');
  if (mark.risk) cls.push(mark.risk);
  if (mark.long) cls.push(mark.long);
  return `<td${cls.length ? ` class="${cls.join(' ')}"` : ''}>${esc(cellText(c, v))}</td>`;
}

/** How a cell is set, in HTML and PDF alike. */
export interface CellMarks {
  /** Nothing to show: a grey `—`. */
  none: boolean;
  /** A number: right-aligned. */
  num: boolean;
  /** A risk the reader must not miss: red, amber, or grey italic for SMART text the app could not read. */
  risk?: 'critical' | 'warning' | 'unknown';
  /** `break`: a long unbroken token (a hash, JSON) broken anywhere; `wrap`: long text that wraps (short values stay on one line). */
  long?: 'break' | 'wrap';
}

/** The marks of one cell (see {@link CellMarks}). */
export function cellMarks(c: Column, v: Cell): CellMarks {
  if (v === null || v === '') return { none: true, num: false };
  const out: CellMarks = { none: false, num: typeof v === 'number' };
  if (c.id === 'risk' && (v === 'critical' || v === 'warning' || v === 'unknown')) out.risk = v;
  if (c.id === 'intact' && v === false) out.risk = 'critical';
  // A long unbroken token (a hash, JSON parameters) would push the table off the printed page.
  if (typeof v === 'string' && v.length >= 32 && /\S{32,}/.test(v)) out.long = 'break';
  // Short values stay on one line (the default, so most cells carry no class); long text wraps.
  else if (typeof v === 'string' && v.length > LONG_TEXT) out.long = 'wrap';
  return out;
}

/** Text longer than this wraps; shorter values stay on one line. */
export const LONG_TEXT = 24;

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
  // Nearly every value of a large pack has nothing to escape: tested once, returned as it is.
  return HTML_SPECIAL.test(s) ? s.replace(HTML_SPECIALS, (ch) => HTML_ENTITIES[ch] as string) : s;
}
const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIALS = /[&<>"']/g;
const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A value safe inside a CSS double-quoted string (the page footer). */
function cssString(s: string): string {
  return s.replace(/[\\"\n\r<>]/g, (ch) => `\\${ch.charCodeAt(0).toString(16)} `);
}
