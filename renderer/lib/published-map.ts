/**
 * Maps held by a view's state as a whole (`$state.raw`) and replaced, never changed in place: an
 * answer or a batch of events about 1,000 systems is then one change for the views (which walk
 * every system anyway), where a SvelteMap makes one per entry.
 */

/** An empty published map. */
export function emptyMap<K, V>(): ReadonlyMap<K, V> {
  return new Map<K, V>();
}

/** A new map: a copy of `base` with `change` applied to it (the copy is not published until returned). */
export function changedMap<K, V>(base: ReadonlyMap<K, V>, change: (draft: Map<K, V>) => void): ReadonlyMap<K, V> {
  const draft = new Map(base);
  change(draft);
  return draft;
}
