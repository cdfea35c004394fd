import { OPERATIONS, type Group, type Operation } from '../../../app/catalog/index.js';

/** The interface's groups in catalog order, for the console's group filter. */
export const OPERATION_GROUPS: readonly Group[] = [...new Set(OPERATIONS.map((o) => o.group))];

/**
 * Operations matching every word of the query in their method, path, summary or group
 * (case-insensitive), optionally within one group. Path matches rank before summary-only matches,
 * so typing `hosts/create` puts that operation first.
 */
export function searchOperations(query: string, group?: Group | '', ops: readonly Operation[] = OPERATIONS): Operation[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const inGroup = ops.filter((o) => !group || o.group === group);
  if (words.length === 0) return [...inGroup];
  const scored: Array<{ op: Operation; score: number; i: number }> = [];
  inGroup.forEach((op, i) => {
    const key = op.key.toLowerCase();
    const hay = `${key} ${op.summary.toLowerCase()} ${op.group}`;
    if (!words.every((w) => hay.includes(w))) return;
    const inPath = words.filter((w) => key.includes(w)).length;
    scored.push({ op, score: inPath, i });
  });
  return scored.sort((a, b) => b.score - a.score || a.i - b.i).map((s) => s.op);
}
