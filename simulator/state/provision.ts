import { fail } from '../errors.js';
import { hashString } from '../random.js';
import { findPool, footprint, poolFreeBytes } from './capacity.js';
import type { AppState, CgState, SystemState, TemplateState, TemplateVolumeState, VolumeState } from './model.js';

/** NAA-6 identifier: fixed OUI plus a hash of the system serial and volume id (stable across runs). */
export function naaFor(system: SystemState, volumeId: number): string {
  const part = (salt: string): string => hashString(`${system.serial}/${volumeId}/${salt}`).toString(16).padStart(8, '0');
  return `6${'0050cc'}${part('a')}${part('b')}${part('c')}`.slice(0, 32);
}

/** Checks the pools of a set of volume footprints fit, summing per pool; 400 naming the first that does not. */
export function checkCapacity(system: SystemState, wanted: ReadonlyArray<{ pool: string; bytes: number }>): void {
  const perPool = new Map<string, number>();
  for (const w of wanted) {
    const pool = findPool(system, w.pool);
    if (!pool) fail(`Pool '${w.pool}' does not exist on system '${system.name}'.`);
    perPool.set(pool.name, (perPool.get(pool.name) ?? 0) + w.bytes);
  }
  for (const [name, bytes] of perPool) {
    const pool = findPool(system, name);
    if (pool && poolFreeBytes(system, pool) < bytes)
      fail(`Not enough free capacity in pool '${name}': ${bytes} bytes requested, ${poolFreeBytes(system, pool)} bytes free.`);
  }
}

/** Builds a volume from a volume template (pool names are canonicalised to the system's spelling). */
export function volumeFromTemplate(system: SystemState, tv: TemplateVolumeState, cgid: number | undefined, nowMs: number): VolumeState {
  const id = ++system.counters.volume;
  const pool = findPool(system, tv.pool)?.name ?? tv.pool;
  const metadataPool = tv.metadataPool ? (findPool(system, tv.metadataPool)?.name ?? tv.metadataPool) : pool;
  const nodes = system.nodes;
  return {
    id,
    entityId: ++system.counters.entity,
    metadataEntityId: ++system.counters.entity,
    name: tv.name,
    capacityBytes: tv.capacityBytes,
    snapshotCapacityBytes: tv.snapshotCapacityBytes,
    pool,
    metadataPool,
    stripedPools: [...tv.stripedPools],
    stripedMetadataPools: [...tv.stripedMetadataPools],
    n: tv.n,
    k: tv.k,
    metadataN: tv.metadataN,
    metadataK: tv.metadataK,
    sectorSize: tv.sectorSize,
    log2Stride: tv.log2Stride,
    cgid,
    groupedVolume: tv.groupedVolume,
    tiers: tv.tiers,
    encrypted: false,
    readOnly: false,
    naa: naaFor(system, id),
    createdAtMs: nowMs,
    consumed: 0,
    ownerNodeId: nodes[id % nodes.length]?.id ?? 0,
    fs: undefined,
    encryptionKey: undefined,
  };
}

/**
 * Creates an application, with the volumes and consistency groups of its template when given.
 * Checks name uniqueness and pool capacity first, so a failure leaves no partial state.
 */
export function createApplication(
  system: SystemState,
  name: string,
  template: TemplateState | undefined,
  description: string,
  nowMs: number,
): AppState {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name))
    fail(`Invalid application name '${name}': use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.`);
  if (system.apps.some((a) => a.name.toLowerCase() === name.toLowerCase())) fail(`Application '${name}' already exists.`);
  const vols = template?.volumes ?? [];
  checkCapacity(
    system,
    vols.map((tv) => ({ pool: tv.pool, bytes: tv.capacityBytes + tv.snapshotCapacityBytes })),
  );
  const cgMap = new Map<number, number>();
  const cgs: CgState[] = [];
  for (const tcg of template?.cgs ?? []) {
    const id = ++system.counters.cg;
    cgMap.set(tcg.id, id);
    cgs.push({ id, schedulers: [...tcg.frequency], vss: tcg.vss, available: true, snapshots: [] });
  }
  for (const tv of vols) {
    if (tv.cgid !== undefined && !cgMap.has(tv.cgid)) {
      const id = ++system.counters.cg;
      cgMap.set(tv.cgid, id);
      cgs.push({ id, schedulers: [], vss: false, available: true, snapshots: [] });
    }
  }
  const app: AppState = {
    name,
    template: template?.name,
    description: description || template?.description || '',
    volumes: vols.map((tv) => volumeFromTemplate(system, tv, tv.cgid === undefined ? undefined : cgMap.get(tv.cgid), nowMs)),
    cgs,
    vms: [],
  };
  system.apps.push(app);
  return app;
}

/** Total allocated bytes of an application (its volumes' footprints). */
export function appFootprint(app: AppState): number {
  return app.volumes.reduce((s, v) => s + footprint(v), 0);
}
