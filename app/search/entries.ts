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

/**
 * One entry, built as one object literal of a fixed shape. Not `{ ...base, kind, … }`: V8 gives each
 * object made by spreading a fresh object a hidden class (map, descriptors) of its own, some 250
 * bytes per entry, 25 MB over the 74,000 entries of a thousand systems.
 */
function entryOf(d: Pick<SystemData, 'siteId' | 'system'>, kind: SearchEntry['kind'], text: string, context: string, area: string, detail?: SearchDetail): SearchEntry {
  return detail ? { siteId: d.siteId, system: d.system, kind, text, context, area, detail } : { siteId: d.siteId, system: d.system, kind, text, context, area };
}

/** The two entries of a system that come from its site rather than its cached data. */
export function siteEntriesOf(d: Pick<SystemData, 'siteId' | 'siteName' | 'siteHost' | 'system'>): SearchEntry[] {
  return [entryOf(d, 'system', d.system, d.siteName, 'summary'), entryOf(d, 'site host', d.siteHost, d.siteName, 'summary')].filter((e) => e.text !== '');
}

/** The entries of a system that come from its cached answers (hosts, volumes, drives, nodes). */
export function dataEntriesOf(d: SystemData): SearchEntry[] {
  const out: SearchEntry[] = [];
  for (const h of d.hosts ?? []) {
    const name = h.Name ?? '';
    const detail: SearchDetail = { kind: 'host', host: name };
    out.push(entryOf(d, 'host', name, h.Ip ?? '', 'hosts', detail));
    if (h.Ip) out.push(entryOf(d, 'host', h.Ip, `host ${name}`, 'hosts', detail));
    for (const w of h.Wwns ?? []) out.push(entryOf(d, 'WWN', w, `host ${name}`, 'hosts', detail));
    if (h.Iqn) out.push(entryOf(d, 'IQN', h.Iqn, `host ${name}`, 'hosts', detail));
    if (h.Nqn) out.push(entryOf(d, 'NQN', h.Nqn, `host ${name}`, 'hosts', detail));
  }
  for (const a of d.applications ?? []) {
    for (const v of a.Volumes ?? []) {
      const app = a.Application ?? v.Application ?? '';
      const vol = v.Volume ?? '';
      const detail: SearchDetail = { kind: 'volume', application: app, volume: vol };
      out.push(entryOf(d, 'volume', `${app}/${vol}`, v.Naa ?? '', 'applications', detail));
      if (v.Naa) out.push(entryOf(d, 'volume', v.Naa, `${app}/${vol}`, 'applications', detail));
    }
  }
  for (const n of d.resources ?? []) {
    for (const drive of n.Drives ?? []) {
      if (drive.Id === undefined) continue;
      const detail: SearchDetail = { kind: 'drive', node: n.Name ?? '', driveId: drive.Id };
      const label = `${drive.Name ?? `drive ${drive.Id}`} on ${n.Name ?? ''}`;
      if (drive.ResourceSerial) out.push(entryOf(d, 'drive', drive.ResourceSerial, label, 'hardware', detail));
    }
  }
  for (const n of d.nodes ?? []) {
    const node = n.Name ?? '';
    const detail: SearchDetail = { kind: 'node', node };
    out.push(entryOf(d, 'node', node, '', 'hardware', detail));
    if (n.Iqn) out.push(entryOf(d, 'IQN', n.Iqn, `node ${node}`, 'hardware', detail));
    for (const w of n.Wwn ?? []) out.push(entryOf(d, 'WWN', w, `node ${node}`, 'hardware', detail));
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
