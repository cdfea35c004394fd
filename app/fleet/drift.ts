import type { Node, VersionRecord } from '../catalog/resources.js';

/**
 * Version and firmware drift across the fleet: for each software component (`GET /Version`) and
 * each kind of hardware whose firmware the interface reports (drives by vendor and model — firmware
 * is only comparable within a model —, FC HBAs by model, the chassis BIOS), the systems grouped by
 * the version they run. The largest group is the fleet's norm; smaller groups are outliers. A system
 * that does not report a component is listed as "not reported", never as a version. NICs carry no
 * firmware field in the interface, so they are not part of it.
 */

export type DriftCategory = 'software' | 'drive' | 'hba' | 'bios';

/** What one system's cache holds for drift: undefined where the read is not cached. */
export interface DriftSystem {
  siteId: string;
  siteName: string;
  system: string;
  versions?: VersionRecord | null | undefined;
  /** `/resources/list` nodes. */
  nodes?: readonly Node[] | null | undefined;
}

export interface SystemRef {
  siteId: string;
  siteName: string;
  system: string;
}

export interface VersionGroup {
  version: string;
  /** Systems on this version (a system with two firmware versions of one drive model is in both groups). */
  systems: SystemRef[];
  /** Components on this version across those systems (drives, HBAs, nodes); 1 per system for software. */
  units: number;
  /** Build numbers seen with this version (software only). */
  builds: string[];
  /** A minority: fewer systems than the largest group. */
  outlier: boolean;
}

export interface DriftRow {
  key: string;
  category: DriftCategory;
  /** The component: `Management`, `Drive SEAGATE ST16000NM001G`, `FC HBA QLE2692`, `BIOS`. */
  subject: string;
  /** Largest first; ties by version. */
  groups: VersionGroup[];
  /** Systems that have the component but do not report its version, or whose read is not cached. */
  notReported: SystemRef[];
  /** More than one version reported. */
  drifting: boolean;
}

const CATEGORY_ORDER: Record<DriftCategory, number> = { software: 0, bios: 1, hba: 2, drive: 3 };

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

interface Acc {
  category: DriftCategory;
  subject: string;
  groups: Map<string, { systems: Map<string, SystemRef>; units: number; builds: Set<string> }>;
  notReported: Map<string, SystemRef>;
}

/** Every component's versions across the given systems, drifting ones first. */
export function versionDrift(systems: readonly DriftSystem[]): DriftRow[] {
  const rows = new Map<string, Acc>();
  const row = (category: DriftCategory, subject: string): Acc => {
    const key = `${category}\u0000${subject}`;
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { category, subject, groups: new Map(), notReported: new Map() }));
    return r;
  };
  const refKey = (s: SystemRef): string => `${s.siteId}\u0000${s.system}`;
  const add = (r: Acc, s: SystemRef, version: string | undefined, build?: string): void => {
    if (version === undefined) {
      r.notReported.set(refKey(s), s);
      return;
    }
    let g = r.groups.get(version);
    if (!g) r.groups.set(version, (g = { systems: new Map(), units: 0, builds: new Set() }));
    g.systems.set(refKey(s), s);
    g.units++;
    if (build) g.builds.add(build);
  };

  const softwareSeen = new Set<string>();
  for (const s of systems) {
    const ref: SystemRef = { siteId: s.siteId, siteName: s.siteName, system: s.system };
    const list = Array.isArray(s.versions?.Versions) ? s.versions.Versions : undefined;
    for (const v of list ?? []) {
      const component = str(v.Component);
      if (!component) continue;
      softwareSeen.add(component);
      add(row('software', component), ref, str(v.Version), str(v.BuildNumber));
    }
    for (const n of s.nodes ?? []) {
      for (const d of n.Drives ?? []) {
        const model = [str(d.Vendor), str(d.Model)].filter(Boolean).join(' ');
        if (model) add(row('drive', `Drive ${model}`), ref, str(d.Version));
      }
      for (const h of n.FibreChannelHostBusAdapters ?? []) add(row('hba', `FC HBA ${str(h.Model) ?? '(model not reported)'}`), ref, str(h.FirmwareVersion));
      for (const c of n.Chassis ?? []) add(row('bios', 'BIOS'), ref, str(c.BiosVersion));
    }
  }
  // A system whose version record is not cached, or lacks a component others report, does not report it.
  for (const component of softwareSeen) {
    const r = row('software', component);
    for (const s of systems) {
      const ref = { siteId: s.siteId, siteName: s.siteName, system: s.system };
      const k = refKey(ref);
      if (![...r.groups.values()].some((g) => g.systems.has(k))) r.notReported.set(k, ref);
    }
  }

  // Hardware of a system whose hardware list is not cached is not reported either.
  for (const r of rows.values()) {
    if (r.category === 'software') continue;
    for (const s of systems) if (!Array.isArray(s.nodes)) r.notReported.set(refKey(s), { siteId: s.siteId, siteName: s.siteName, system: s.system });
  }

  const out: DriftRow[] = [];
  for (const [key, r] of rows) {
    const groups = [...r.groups.entries()]
      .map(([version, g]) => ({ version, systems: [...g.systems.values()], units: g.units, builds: [...g.builds].sort(), outlier: false }))
      .sort((a, b) => b.systems.length - a.systems.length || b.units - a.units || a.version.localeCompare(b.version, undefined, { numeric: true }));
    const top = groups[0]?.systems.length ?? 0;
    for (const g of groups) g.outlier = g.systems.length < top;
    const grouped = new Set(groups.flatMap((g) => g.systems.map(refKey)));
    // A system that reports the version of some units is on those versions, not "not reported".
    const notReported = [...r.notReported.entries()].filter(([k]) => !grouped.has(k)).map(([, s]) => s);
    out.push({ key, category: r.category, subject: r.subject, groups, notReported, drifting: groups.length > 1 });
  }
  return out.sort((a, b) => Number(b.drifting) - Number(a.drifting) || CATEGORY_ORDER[a.category] - CATEGORY_ORDER[b.category] || a.subject.localeCompare(b.subject));
}

/** The systems of one version of one component: the filter of the drift view. */
export function systemsOn(row: DriftRow, version: string): SystemRef[] {
  return row.groups.find((g) => g.version === version)?.systems ?? [];
}

/** Drift rows as export cells: one line per component and version (and one for "not reported"). */
export const DRIFT_COLUMNS = ['Kind', 'Component', 'Version', 'Outlier', 'Systems', 'Units', 'Builds', 'System names'] as const;

export function driftCells(rows: readonly DriftRow[]): Array<Array<string | number | boolean | null>> {
  const names = (refs: readonly SystemRef[]): string => refs.map((s) => `${s.siteName}/${s.system}`).join(', ');
  return rows.flatMap((r) => [
    ...r.groups.map((g) => [r.category, r.subject, g.version, g.outlier, g.systems.length, g.units, g.builds.join(', ') || null, names(g.systems)]),
    ...(r.notReported.length ? [[r.category, r.subject, 'not reported', null, r.notReported.length, null, null, names(r.notReported)]] : []),
  ]);
}
