import type { Application, OperationKey } from '../../app/catalog/index.js';
import type { SystemContext, TypedCallParams } from '../lib/system.svelte.js';

/**
 * Small pure helpers the areas share: choices for generated forms from cached lists, and the
 * list-field text (one value per line) of arrays.
 */

export interface Choice {
  value: string;
  label?: string;
}

/** Distinct non-empty values as form choices, in first-seen order. */
export function choices(values: ReadonlyArray<string | null | undefined>): Choice[] {
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v !== ''))].map((value) => ({ value }));
}

/** An array as a list field's text (one value per line). */
export function lines(values: ReadonlyArray<string | number> | null | undefined): string {
  return (values ?? []).map(String).join('\n');
}

/** The volumes of one application, by name. */
export function volumesOf(apps: readonly Application[], application: string | undefined): string[] {
  const app = apps.find((a) => a.Application === application);
  return (app?.Volumes ?? []).map((v) => v.Volume ?? '').filter(Boolean);
}

/** The other systems of the same site: targets of pairing and replication. */
export function otherSystems(sys: SystemContext): string[] {
  return sys.fleet.systems.filter((s) => s.siteId === sys.siteId && s.system !== sys.system).map((s) => s.system);
}

/** What to tell the admin after a write: the system's own message, else a fallback. */
export function messageOf(result: unknown, fallback: string): string {
  return typeof result === 'string' && result.trim() !== '' ? result : fallback;
}

/** Runs a write that needs no form or confirmation (mount, enable, refresh) and says how it went. */
export async function quickWrite<K extends OperationKey>(sys: SystemContext, op: K, params: TypedCallParams<K>, fallback: string): Promise<{ text: string; error?: boolean }> {
  try {
    return { text: messageOf(await sys.write(op, params), fallback) };
  } catch (err) {
    return { text: `${op} failed: ${err instanceof Error ? err.message : String(err)}`, error: true };
  }
}

/**
 * A text table as some operations answer (the replication floating IP list): a header line, then one
 * row per line, columns separated by two or more spaces. Rows with a different number of columns
 * than the header are kept whole in the first column, so nothing is silently dropped.
 */
export function parseTextTable(text: string): { header: string[]; rows: string[][] } {
  const all = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const split = (l: string): string[] => l.trim().split(/\s{2,}/);
  const header = all.length > 1 ? split(all[0] ?? '') : [];
  if (header.length < 2) return { header: [], rows: all.map((l) => [l]) };
  return { header, rows: all.slice(1).map((l) => (split(l).length === header.length ? split(l) : [l.trim()])) };
}
