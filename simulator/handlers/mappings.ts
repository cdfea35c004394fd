import type { HostMapping } from '../../app/catalog/resources.js';
import type { Args } from '../args.js';
import { fail } from '../errors.js';
import { requireApp, requireHost, requireVolume, sameName, volumeIndex } from '../state/lookup.js';
import type { AppState, HostState, MappingState, SystemState, VolumeState } from '../state/model.js';
import { parseLun } from './checks.js';
import type { Ctx } from './context.js';

/** Mapping rules shared by applications/mappings and hosts/mappings: a LUN id is unique per host. */

function volumesOf(app: AppState, names: readonly string[] | undefined): VolumeState[] {
  if (names === undefined || names.length === 0) {
    if (app.volumes.length === 0) fail(`Application '${app.name}' has no volumes to map.`);
    return app.volumes;
  }
  return names.map((n) => requireVolume(app, n));
}

function lunsFor(luns: readonly string[] | undefined, count: number): number[] | undefined {
  if (luns === undefined || luns.length === 0) return undefined;
  if (luns.length !== count) fail(`LunIds has ${luns.length} entries but ${count} volumes are mapped: send one LUN id per volume.`);
  const parsed = luns.map(parseLun);
  if (new Set(parsed).size !== parsed.length) fail('LunIds contains the same LUN id twice.');
  return parsed;
}

/** Plans mappings of `vols` to `host`, treating `ignore` as already removed; throws before any change. */
function plan(system: SystemState, host: HostState, vols: readonly VolumeState[], luns: number[] | undefined, ignore: ReadonlySet<MappingState>): MappingState[] {
  const existing = system.mappings.filter((m) => m.host === host.name && !ignore.has(m));
  const used = new Set(existing.map((m) => m.lun));
  const out: MappingState[] = [];
  vols.forEach((vol, i) => {
    if (existing.some((m) => m.volumeId === vol.id)) fail(`Volume '${vol.name}' is already mapped to host '${host.name}'.`);
    let lun = luns?.[i];
    if (lun === undefined) {
      lun = 0;
      while (used.has(lun)) lun++;
    } else if (used.has(lun)) {
      fail(`LUN ${lun} is already used on host '${host.name}'.`);
    }
    used.add(lun);
    out.push({ volumeId: vol.id, host: host.name, lun });
  });
  return out;
}

export function addMappings(ctx: Ctx): string {
  const app = requireApp(ctx.system, ctx.body.str('Application'));
  const hostNames = ctx.body.strs('Hosts') ?? [];
  if (hostNames.length === 0) fail('Hosts is required: name at least one host.');
  const hosts = hostNames.map((h) => requireHost(ctx.system, h));
  const vols = volumesOf(app, ctx.body.strs('Volumes'));
  const luns = lunsFor(ctx.body.strs('LunIds'), vols.length);
  const planned = hosts.flatMap((h) => plan(ctx.system, h, vols, luns, new Set()));
  ctx.system.mappings.push(...planned);
  return `Mapped ${vols.length} volume(s) of '${app.name}' to ${hosts.map((h) => `'${h.name}'`).join(', ')}.`;
}

export function deleteMappings(ctx: Ctx, q: Args): string {
  const app = requireApp(ctx.system, q.str('application'));
  const hosts = (q.strs('hosts') ?? []).map((h) => requireHost(ctx.system, h));
  const vols = (q.strs('volumes') ?? []).map((v) => requireVolume(app, v));
  const volIds = new Set((vols.length ? vols : app.volumes).map((v) => v.id));
  const hostNames = new Set(hosts.map((h) => h.name));
  const doomed = ctx.system.mappings.filter((m) => volIds.has(m.volumeId) && (hostNames.size === 0 || hostNames.has(m.host)));
  if (doomed.length === 0) fail(`No mappings of application '${app.name}' match.`);
  ctx.system.mappings = ctx.system.mappings.filter((m) => !doomed.includes(m));
  return `Deleted ${doomed.length} mapping(s) of '${app.name}'.`;
}

export function editMappings(ctx: Ctx): string {
  const app = requireApp(ctx.system, ctx.query.str('application'));
  const host = requireHost(ctx.system, ctx.query.str('host'));
  const names = ctx.body.strs('Volumes');
  if (!names || names.length === 0) fail('Volumes is required.');
  const vols = volumesOf(app, names);
  const luns = lunsFor(ctx.body.strs('LunIds'), vols.length);
  const appVolIds = new Set(app.volumes.map((v) => v.id));
  const replaced = new Set(ctx.system.mappings.filter((m) => m.host === host.name && appVolIds.has(m.volumeId)));
  const planned = plan(ctx.system, host, vols, luns, replaced);
  ctx.system.mappings = [...ctx.system.mappings.filter((m) => !replaced.has(m)), ...planned];
  return `Mappings of '${app.name}' on host '${host.name}' updated.`;
}

export function listMappings(ctx: Ctx): { Data: HostMapping[] } {
  const appFilter = ctx.query.str('application');
  const hostFilter = ctx.query.str('host');
  const index = volumeIndex(ctx.system);
  const groups = new Map<string, HostMapping>();
  for (const m of ctx.system.mappings) {
    const entry = index.get(m.volumeId);
    if (!entry) continue;
    if (appFilter && !sameName(entry.app.name, appFilter)) continue;
    if (hostFilter && !sameName(m.host, hostFilter)) continue;
    const key = `${entry.app.name}\u0000${m.host}`;
    const rec = groups.get(key) ?? { Application: entry.app.name, Host: m.host, Volumes: [], LunIds: [] };
    rec.Volumes?.push(entry.vol.name);
    rec.LunIds?.push(String(m.lun));
    groups.set(key, rec);
  }
  return { Data: [...groups.values()] };
}
