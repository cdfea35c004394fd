import type { Route } from './nav.svelte.js';

/** One entry of the command palette. */
export interface PaletteItem {
  id: string;
  group: 'View' | 'System' | 'Operation' | 'Action' | 'Found';
  label: string;
  /** Right-hand detail: a summary, a state. */
  hint: string;
  /** More words that match (not shown). */
  keywords?: string;
  /** Why it cannot run now; undefined when it can. */
  disabled?: string;
  run: () => void;
}

/** True when `q` starts a word of `text` (after a space, slash, dot, dash…), not just anywhere inside one. */
function startsWord(text: string, q: string): boolean {
  for (let i = text.indexOf(q); i >= 0; i = text.indexOf(q, i + 1)) if (i === 0 || !/[a-z0-9]/.test(text[i - 1] as string)) return true;
  return false;
}

/**
 * How well an item matches, lower is better, or undefined when it does not: every word must occur in
 * label, hint or keywords. A label that starts with the query beats one with a word starting with
 * it (`ping` in `GET /resources/network/ping`), which beats the query inside a word (`mappings`),
 * which beats a match elsewhere.
 */
export function scoreItem(item: PaletteItem, q: string, words: readonly string[]): number | undefined {
  const label = item.label.toLowerCase();
  const hay = `${label} ${item.hint.toLowerCase()} ${item.keywords?.toLowerCase() ?? ''} ${item.group.toLowerCase()}`;
  if (!words.every((w) => hay.includes(w))) return undefined;
  if (label.startsWith(q)) return 0;
  if (startsWord(label, q)) return 1;
  if (label.includes(q)) return 2;
  return words.every((w) => label.includes(w)) ? 3 : 4;
}

/**
 * Items matching a query, best first (see `scoreItem`); `found` (fleet objects matched by the
 * search index) come right after the items whose label starts with the query.
 */
export function rankItems(items: readonly PaletteItem[], query: string, limit = 60, found: readonly PaletteItem[] = []): PaletteItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return items.slice(0, limit);
  const words = q.split(/\s+/);
  const scored: Array<{ item: PaletteItem; score: number; i: number }> = [];
  items.forEach((item, i) => {
    const score = scoreItem(item, q, words);
    if (score !== undefined) scored.push({ item, score, i });
  });
  found.forEach((item, i) => scored.push({ item, score: 0.5, i }));
  scored.sort((a, b) => a.score - b.score || a.i - b.i);
  return scored.slice(0, limit).map((s) => s.item);
}

/** A fleet view the palette offers: its name as the header shows it, and the words an admin may type for it. */
export interface FleetViewEntry {
  id: string;
  label: string;
  hint: string;
  keywords: string;
  route: Route;
}

/**
 * Every fleet-wide view, under the name the header gives it and its common synonyms. Listed before
 * the systems' areas, so a view named by the query ("alerts", "versions") comes before each
 * system's area or an operation that merely shares the word.
 */
export const FLEET_VIEWS: readonly FleetViewEntry[] = [
  { id: 'overview', label: 'Fleet overview', hint: 'every system, worst first', keywords: 'home dashboard health status summary systems', route: { view: 'overview' } },
  { id: 'alerts', label: 'Alerts', hint: 'what needs attention across the fleet: acknowledge, snooze, rules', keywords: 'alarms problems warnings critical incidents notifications events rules acknowledge snooze', route: { view: 'alerts' } },
  { id: 'capacity', label: 'Capacity planning', hint: 'every pool of every system, the one that fills first on top', keywords: 'capacity forecast days until full pools space usage growth trend storage', route: { view: 'capacity' } },
  { id: 'compliance', label: 'Compliance', hint: 'every system against the compliance baseline', keywords: 'compliance baseline policy security hardening waiver score', route: { view: 'compliance' } },
  { id: 'drift', label: 'Versions and firmware', hint: 'software and firmware versions across the fleet', keywords: 'versions drift firmware software release upgrade update build', route: { view: 'drift' } },
  { id: 'compare', label: 'Compare configuration', hint: 'chosen systems side by side, differences marked', keywords: 'compare diff differences configuration settings side by side', route: { view: 'compare' } },
  { id: 'bulk', label: 'Bulk changes', hint: 'one change on several systems', keywords: 'bulk mass batch many systems change apply fleet-wide', route: { view: 'bulk' } },
  { id: 'reports', label: 'Reports', hint: 'generate, export, history, compare snapshots', keywords: 'report audit inventory health smart configuration export manifest pdf csv', route: { view: 'reports' } },
  { id: 'actions', label: 'Action log', hint: 'every write made from Fleetdeck: filter, verify the chain, export', keywords: 'audit history writes changes hash chain verify export csv json', route: { view: 'actions' } },
  { id: 'sites', label: 'Sites', hint: 'edit, pause, log in or out, certificates, remove', keywords: 'login logout password two-factor trust certificate polling connections', route: { view: 'sites' } },
];
