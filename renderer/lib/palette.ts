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
