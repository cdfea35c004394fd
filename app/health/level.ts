/** Severity, ordered so that sorting by rank puts the worst first. Not knowing sorts before a warning. */
export type Level = 'critical' | 'unknown' | 'warning' | 'ok';

/** The levels, worst first: a level's rank is its index here. */
export const LEVELS_BY_RANK: readonly Level[] = ['critical', 'unknown', 'warning', 'ok'];

const RANK = Object.fromEntries(LEVELS_BY_RANK.map((l, i) => [l, i])) as Readonly<Record<Level, number>>;

export function levelRank(level: Level): number {
  return RANK[level];
}

/** The worse of two levels. */
export function worse(a: Level, b: Level): Level {
  return RANK[a] <= RANK[b] ? a : b;
}

/** The worst of several levels; `empty` when there are none. */
export function worst(levels: Iterable<Level>, empty: Level = 'ok'): Level {
  let out: Level | undefined;
  for (const l of levels) out = out === undefined ? l : worse(out, l);
  return out ?? empty;
}
