import { z } from 'zod';
import type { Application, Host, Node } from '../catalog/index.js';

/** Where selecting a result leads inside its area (a subset of the renderer's area details). */
export const searchDetailSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('node'), node: z.string() }),
  z.object({ kind: z.literal('drive'), node: z.string(), driveId: z.number() }),
  z.object({ kind: z.literal('volume'), application: z.string(), volume: z.string() }),
  z.object({ kind: z.literal('host'), host: z.string() }),
]);
export type SearchDetail = z.infer<typeof searchDetailSchema>;

export const SEARCH_KINDS = ['system', 'site host', 'host', 'volume', 'drive', 'WWN', 'IQN', 'NQN', 'node'] as const;

/** One searchable thing of the fleet, with where selecting it leads. */
export const searchEntrySchema = z.object({
  kind: z.enum(SEARCH_KINDS),
  /** What matched, shown in the result. */
  text: z.string(),
  /** Extra context: the host a WWN belongs to, the node of a drive. */
  context: z.string(),
  siteId: z.string(),
  system: z.string(),
  area: z.string(),
  detail: searchDetailSchema.optional(),
});
export type SearchEntry = z.infer<typeof searchEntrySchema>;

/**
 * A fleet search as main answers it: the first results, how many match in all, and how complete
 * the index was: `pending` systems whose cached data was not (yet) read into it, so an answer with
 * few or no results while the index is being built says so instead of looking final.
 */
export const searchAnswerSchema = z.object({
  results: z.array(searchEntrySchema),
  total: z.number().int().min(0),
  /** Systems searched (this window's scope). */
  systems: z.number().int().min(0),
  /** Of those, systems whose cached data is not in the index yet, or changed since it was read. */
  pending: z.number().int().min(0),
});
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;

/** The cached reads a system's entries come from. */
export interface SystemData {
  siteId: string;
  siteName: string;
  siteHost: string;
  system: string;
  hosts?: readonly Host[];
  applications?: readonly Application[];
  /** `/resources/list` nodes (drives with serials). */
  resources?: readonly Node[];
  /** `/nodes/list` nodes (IQNs and WWNs of the nodes themselves). */
  nodes?: readonly Node[];
}

/** The two entries of a system that come from its site rather than its cached data. */
export function siteEntriesOf(d: Pick<SystemData, 'siteId' | 'siteName' | 'siteHost' | 'system'>): SearchEntry[] {
  const base = { siteId: d.siteId, system: d.system };
  return [
    { ...base, kind: 'system' as const, text: d.system, context: d.siteName, area: 'summary' },
    { ...base, kind: 'site host' as const, text: d.siteHost, context: d.siteName, area: 'summary' },
  ].filter((e) => e.text !== '');
}

/** The entries of a system that come from its cached answers (hosts, volumes, drives, nodes). */
export function dataEntriesOf(d: SystemData): SearchEntry[] {
  const base = { siteId: d.siteId, system: d.system };
  const out: SearchEntry[] = [];
  for (const h of d.hosts ?? []) {
    const name = h.Name ?? '';
    const detail: SearchDetail = { kind: 'host', host: name };
    out.push({ ...base, kind: 'host', text: name, context: h.Ip ?? '', area: 'hosts', detail });
    if (h.Ip) out.push({ ...base, kind: 'host', text: h.Ip, context: `host ${name}`, area: 'hosts', detail });
    for (const w of h.Wwns ?? []) out.push({ ...base, kind: 'WWN', text: w, context: `host ${name}`, area: 'hosts', detail });
    if (h.Iqn) out.push({ ...base, kind: 'IQN', text: h.Iqn, context: `host ${name}`, area: 'hosts', detail });
    if (h.Nqn) out.push({ ...base, kind: 'NQN', text: h.Nqn, context: `host ${name}`, area: 'hosts', detail });
  }
  for (const a of d.applications ?? []) {
    for (const v of a.Volumes ?? []) {
      const app = a.Application ?? v.Application ?? '';
      const vol = v.Volume ?? '';
      const detail: SearchDetail = { kind: 'volume', application: app, volume: vol };
      out.push({ ...base, kind: 'volume', text: `${app}/${vol}`, context: v.Naa ?? '', area: 'applications', detail });
      if (v.Naa) out.push({ ...base, kind: 'volume', text: v.Naa, context: `${app}/${vol}`, area: 'applications', detail });
    }
  }
  for (const n of d.resources ?? []) {
    for (const drive of n.Drives ?? []) {
      if (drive.Id === undefined) continue;
      const detail: SearchDetail = { kind: 'drive', node: n.Name ?? '', driveId: drive.Id };
      const label = `${drive.Name ?? `drive ${drive.Id}`} on ${n.Name ?? ''}`;
      if (drive.ResourceSerial) out.push({ ...base, kind: 'drive', text: drive.ResourceSerial, context: label, area: 'hardware', detail });
    }
  }
  for (const n of d.nodes ?? []) {
    const node = n.Name ?? '';
    out.push({ ...base, kind: 'node', text: node, context: '', area: 'hardware', detail: { kind: 'node', node } });
    if (n.Iqn) out.push({ ...base, kind: 'IQN', text: n.Iqn, context: `node ${node}`, area: 'hardware', detail: { kind: 'node', node } });
    for (const w of n.Wwn ?? []) out.push({ ...base, kind: 'WWN', text: w, context: `node ${node}`, area: 'hardware', detail: { kind: 'node', node } });
  }
  return out.filter((e) => e.text !== '');
}

/** Every searchable entry of one system: the system and its site host, then what its cached data names. */
export function entriesOf(d: SystemData): SearchEntry[] {
  return [...siteEntriesOf(d), ...dataEntriesOf(d)];
}

/** Lowercase without separators, so `50:01:43:80` finds `5001438…` and the other way round. */
function squash(s: string): string {
  return s.toLowerCase().replace(/[\s:._-]/g, '');
}

/** An entry with its lowercase, separator-free and text-plus-context forms, made once (a search runs on every keystroke over every system's entries). */
export interface FoldedEntry {
  entry: SearchEntry;
  text: string;
  flat: string;
  hay: string;
}

export function foldEntry(entry: SearchEntry): FoldedEntry {
  const text = entry.text.toLowerCase();
  return { entry, text, flat: squash(entry.text), hay: `${text} ${entry.context.toLowerCase()}` };
}

// Made on the first query, not at import: a process's first collator loads ICU's collation data
// (tens of ms), which main's start does not need.
let collator: Intl.Collator | undefined;

/**
 * Entries matching a query: every word must occur in the entry's text or context (or, for
 * identifiers, the text's separator-free form). Exact matches first, then prefixes, then the rest,
 * each by text; entries tied on both keep the order they were given in (list by list). The first
 * `limit` of them and how many match in all.
 */
export function matchEntries(lists: Iterable<readonly FoldedEntry[]>, query: string, limit: number): { results: SearchEntry[]; total: number } {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { results: [], total: 0 };
  const q = query.trim().toLowerCase();
  const flatWords = words.map(squash);
  const flatQ = squash(q);
  // One bucket per rank: only the buckets needed to fill `limit` are sorted.
  const buckets: SearchEntry[][] = [[], [], []];
  let total = 0;
  for (const entries of lists) {
    for (const f of entries) {
      if (!words.every((w, i) => f.hay.includes(w) || f.flat.includes(flatWords[i] as string))) continue;
      const score = f.text === q || f.flat === flatQ ? 0 : f.text.startsWith(q) || f.flat.startsWith(flatQ) ? 1 : 2;
      (buckets[score] as SearchEntry[]).push(f.entry);
      total++;
    }
  }
  const results: SearchEntry[] = [];
  for (const bucket of buckets) {
    if (results.length >= limit) break;
    // Array.prototype.sort is stable: ties keep the given order.
    const c = (collator ??= new Intl.Collator());
    bucket.sort((a, b) => c.compare(a.text, b.text));
    results.push(...bucket.slice(0, limit - results.length));
  }
  return { results, total };
}

/** {@link matchEntries} over plain entries, results only (at most `limit`). */
export function searchEntries(entries: readonly SearchEntry[], query: string, limit = 200): SearchEntry[] {
  return matchEntries([entries.map(foldEntry)], query, limit).results;
}
