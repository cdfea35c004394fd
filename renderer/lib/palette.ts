/** One entry of the command palette. */
export interface PaletteItem {
  id: string;
  group: 'View' | 'System' | 'Operation' | 'Action';
  label: string;
  /** Right-hand detail: a summary, a state. */
  hint: string;
  /** More words that match (not shown). */
  keywords?: string;
  /** Why it cannot run now; undefined when it can. */
  disabled?: string;
  run: () => void;
}

/**
 * Items matching a query, best first: every word must occur in label, hint or keywords; a label
 * that starts with the query beats one that contains it, which beats a match elsewhere.
 */
export function rankItems(items: readonly PaletteItem[], query: string, limit = 60): PaletteItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return items.slice(0, limit);
  const words = q.split(/\s+/);
  const scored: Array<{ item: PaletteItem; score: number; i: number }> = [];
  items.forEach((item, i) => {
    const label = item.label.toLowerCase();
    const hay = `${label} ${item.hint.toLowerCase()} ${item.keywords?.toLowerCase() ?? ''} ${item.group.toLowerCase()}`;
    if (!words.every((w) => hay.includes(w))) return;
    const score = label.startsWith(q) ? 0 : label.includes(q) ? 1 : words.every((w) => label.includes(w)) ? 2 : 3;
    scored.push({ item, score, i });
  });
  scored.sort((a, b) => a.score - b.score || a.i - b.i);
  return scored.slice(0, limit).map((s) => s.item);
}
