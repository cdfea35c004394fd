import type { Application, Host, Node } from '../../app/catalog/index.js';
import type { AreaDetail } from './nav.svelte.js';

/** One searchable thing of the fleet, with where selecting it leads. */
export interface SearchEntry {
  kind: 'system' | 'site host' | 'host' | 'volume' | 'drive' | 'WWN' | 'IQN' | 'NQN' | 'node';
  /** What matched, shown in the result. */
  text: string;
  /** Extra context: the host a WWN belongs to, the node of a drive. */
  context: string;
  siteId: string;
  system: string;
  area: string;
  detail?: AreaDetail;
}

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

/** Every searchable entry of one system. */
export function entriesOf(d: SystemData): SearchEntry[] {
  const base = { siteId: d.siteId, system: d.system };
  const out: SearchEntry[] = [
    { ...base, kind: 'system', text: d.system, context: d.siteName, area: 'summary' },
    { ...base, kind: 'site host', text: d.siteHost, context: d.siteName, area: 'summary' },
  ];
  for (const h of d.hosts ?? []) {
    const name = h.Name ?? '';
    const detail: AreaDetail = { kind: 'host', host: name };
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
      const detail: AreaDetail = { kind: 'volume', application: app, volume: vol };
      out.push({ ...base, kind: 'volume', text: `${app}/${vol}`, context: v.Naa ?? '', area: 'applications', detail });
      if (v.Naa) out.push({ ...base, kind: 'volume', text: v.Naa, context: `${app}/${vol}`, area: 'applications', detail });
    }
  }
  for (const n of d.resources ?? []) {
    for (const drive of n.Drives ?? []) {
      if (drive.Id === undefined) continue;
      const detail: AreaDetail = { kind: 'drive', node: n.Name ?? '', driveId: drive.Id };
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

/** Lowercase without separators, so `50:01:43:80` finds `5001438…` and the other way round. */
function squash(s: string): string {
  return s.toLowerCase().replace(/[\s:._-]/g, '');
}

/** An entry's lowercase, separator-free and text-plus-context forms, made once per entry (a search runs on every keystroke over every system's entries). */
const foldedForms = new WeakMap<SearchEntry, { text: string; flat: string; hay: string }>();
function folded(e: SearchEntry): { text: string; flat: string; hay: string } {
  let f = foldedForms.get(e);
  if (!f) {
    const text = e.text.toLowerCase();
    f = { text, flat: squash(e.text), hay: `${text} ${e.context.toLowerCase()}` };
    foldedForms.set(e, f);
  }
  return f;
}

/**
 * Entries matching a query: every word must occur in the entry's text (or, for identifiers, its
 * separator-free form). Exact matches first, then prefixes, then the rest; at most `limit`.
 */
export function searchEntries(entries: readonly SearchEntry[], query: string, limit = 200): SearchEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const q = query.trim().toLowerCase();
  const flatWords = words.map(squash);
  const flatQ = squash(q);
  const scored: Array<{ e: SearchEntry; score: number }> = [];
  for (const e of entries) {
    const { text, flat, hay } = folded(e);
    if (!words.every((w, i) => hay.includes(w) || flat.includes(flatWords[i] as string))) continue;
    const score = text === q || flat === flatQ ? 0 : text.startsWith(q) || flat.startsWith(flatQ) ? 1 : 2;
    scored.push({ e, score });
  }
  scored.sort((a, b) => a.score - b.score || a.e.text.localeCompare(b.e.text));
  return scored.slice(0, limit).map((s) => s.e);
}
