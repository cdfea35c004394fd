/**
 * The text formats Prometheus scrapes: the Prometheus text format 0.0.4 and OpenMetrics 1.0.0. The
 * samples are written the same way in both; the family headers differ (OpenMetrics names a counter's
 * family without `_total` and an info family without `_info`, states units, escapes quotes in help
 * text and ends with `# EOF`).
 */

export type MetricType = 'gauge' | 'counter' | 'histogram' | 'info';

/** One metric family: `name` is what PromQL names (a counter's ends in `_total`, an info's in `_info`). */
export interface FamilySpec {
  name: string;
  type: MetricType;
  /** The base unit the name ends in (`bytes`, `seconds`, `ratio`), stated in OpenMetrics. */
  unit?: string;
  help: string;
}

export type Format = 'openmetrics' | 'prometheus';

export const CONTENT_TYPES: Readonly<Record<Format, string>> = {
  openmetrics: 'application/openmetrics-text; version=1.0.0; charset=utf-8',
  prometheus: 'text/plain; version=0.0.4; charset=utf-8',
};

/** The format a scraper asks for in its Accept header: OpenMetrics when it names it, else the Prometheus text format. */
export function formatFor(accept: string | undefined): Format {
  if (!accept) return 'prometheus';
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().split(';').map((p) => p.trim().toLowerCase());
    if (type !== 'application/openmetrics-text') continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    const version = params.find((p) => p.startsWith('version='))?.slice(8);
    // 0.0.1 is the draft Prometheus also accepts; 1.0.0 is what is written.
    if (version === undefined || version === '1.0.0' || version === '0.0.1') return 'openmetrics';
  }
  return 'prometheus';
}

const NEEDS_ESCAPE = /[\\\n"]/;

/** A label value as the text formats carry it: backslash, double quote and line feed escaped. */
export function labelValue(v: string): string {
  return NEEDS_ESCAPE.test(v) ? v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"') : v;
}

/** `name="value",…` of label pairs, values escaped (no braces). */
export function labelPairs(labels: Readonly<Record<string, string>>): string {
  let out = '';
  for (const k in labels) out += `${out ? ',' : ''}${k}="${labelValue(labels[k] as string)}"`;
  return out;
}

/** A sample value: integers as they are, other numbers as Go's parser reads them (`NaN`, `+Inf`, `-Inf`). */
export function sampleValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return '+Inf';
  if (v === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(v);
}

function familyName(spec: FamilySpec, format: Format): string {
  if (format === 'prometheus') return spec.name;
  if (spec.type === 'counter') return spec.name.replace(/_total$/, '');
  if (spec.type === 'info') return spec.name.replace(/_info$/, '');
  return spec.name;
}

function help(text: string, format: Format): string {
  const t = text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
  return format === 'openmetrics' ? t.replace(/"/g, '\\"') : t;
}

/** The header lines of a family in `format`. */
export function familyHeader(spec: FamilySpec, format: Format): string {
  const name = familyName(spec, format);
  const type = format === 'prometheus' && spec.type === 'info' ? 'gauge' : spec.type;
  const unit = format === 'openmetrics' && spec.unit ? `# UNIT ${name} ${spec.unit}\n` : '';
  return `# HELP ${name} ${help(spec.help, format)}\n# TYPE ${name} ${type}\n${unit}`;
}

/**
 * The exposition of `families`, each with its sample text (whole lines, each ending in a line
 * feed). A family without samples keeps its header, so a scraper and a reader of the page see every
 * family the endpoint serves.
 */
export function exposition(families: ReadonlyArray<{ spec: FamilySpec; samples: string }>, format: Format): string {
  const parts: string[] = [];
  for (const f of families) parts.push(familyHeader(f.spec, format), f.samples);
  if (format === 'openmetrics') parts.push('# EOF\n');
  return parts.join('');
}

/** The sample lines of a histogram from its per-bucket (not cumulative) counts. */
export function histogramSamples(name: string, labels: string, bounds: readonly number[], h: { buckets: readonly number[]; count: number; sum: number }): string {
  const pre = labels ? `${labels},` : '';
  let out = '';
  let cumulative = 0;
  bounds.forEach((b, i) => {
    cumulative += h.buckets[i] ?? 0;
    out += `${name}_bucket{${pre}le="${sampleValue(b)}"} ${cumulative}\n`;
  });
  out += `${name}_bucket{${pre}le="+Inf"} ${h.count}\n`;
  out += `${name}_sum${labels ? `{${labels}}` : ''} ${sampleValue(h.sum)}\n`;
  out += `${name}_count${labels ? `{${labels}}` : ''} ${h.count}\n`;
  return out;
}
