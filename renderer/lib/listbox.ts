/**
 * Keyboard of a search-and-pick list (the console's operation list, the command palette):
 * Up/Down move the active option (wrapping) and scroll it into view, Enter chooses it.
 * @returns the new active index.
 */
export function listboxKeydown(e: KeyboardEvent, count: number, active: number, idPrefix: string, choose: (index: number) => void): number {
  if (count === 0) return active;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    const next = (active + (e.key === 'ArrowDown' ? 1 : -1) + count) % count;
    // jsdom has no scrollIntoView; browsers do.
    document.getElementById(`${idPrefix}-o${next}`)?.scrollIntoView?.({ block: 'nearest' });
    return next;
  }
  if (e.key === 'Enter') {
    e.preventDefault();
    choose(active);
  }
  return active;
}
