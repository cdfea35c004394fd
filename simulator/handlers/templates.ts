import type { Tiers } from '../../app/catalog/resources.js';
import type { Args } from '../args.js';
import { fail } from '../errors.js';
import { findPool } from '../state/capacity.js';
import { sameName } from '../state/lookup.js';
import type { SystemState, TemplateState, TemplateVolumeState } from '../state/model.js';
import { templateView } from '../state/views.js';
import { editNameAndDescription, requireName } from './checks.js';
import type { Ctx, HandlerMap } from './context.js';

const MAX_VOLUME_BYTES = 2 ** 50;
const SECTOR_SIZES = ['512', '4K'] as const;

function requireTemplate(system: SystemState, name: string | undefined, field = 'Application'): TemplateState {
  if (!name) fail(`${field} (the template name) is required.`);
  const t = system.templates.find((x) => sameName(x.name, name));
  if (!t) fail(`Template '${name}' does not exist.`);
  return t;
}

function requireTemplateVolume(t: TemplateState, name: string | undefined): TemplateVolumeState {
  if (!name) fail('volume is required.');
  const v = t.volumes.find((x) => sameName(x.name, name));
  if (!v) fail(`Volume template '${name}' does not exist in template '${t.name}'.`);
  return v;
}

function poolName(system: SystemState, field: string, name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const pool = findPool(system, name);
  if (!pool) fail(`${field} '${name}' does not exist on system '${system.name}'.`);
  return pool.name;
}

function pools(system: SystemState, field: string, names: readonly string[] | undefined): string[] | undefined {
  return names?.map((n) => poolName(system, field, n) as string);
}

function sectorSize(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const t = text.trim().toUpperCase() === '4096' ? '4K' : text.trim().toUpperCase();
  const found = SECTOR_SIZES.find((s) => s === t);
  if (!found) fail(`Invalid SectorSize '${text}': expected 512 or 4K.`);
  return found;
}

/** Applies volume-template fields from a body onto `v` (create starts from defaults, edit from the current values). */
function applyVolumeFields(system: SystemState, t: TemplateState, v: TemplateVolumeState, b: Args): void {
  const cap = b.int('CapacityInBytes');
  if (cap !== undefined && (cap <= 0 || cap > MAX_VOLUME_BYTES)) fail(`CapacityInBytes must be between 1 and ${MAX_VOLUME_BYTES}.`);
  const snap = b.int('SnapshotCapacityInBytes');
  if (snap !== undefined && (snap < 0 || snap > MAX_VOLUME_BYTES)) fail(`SnapshotCapacityInBytes must be between 0 and ${MAX_VOLUME_BYTES}.`);
  const pool = poolName(system, 'Pool', b.str('Pool'));
  const metaPool = poolName(system, 'MetadataPool', b.str('MetadataPool'));
  if (pool !== undefined && b.int('N') === undefined && b.int('K') === undefined) {
    const p = findPool(system, pool);
    if (p) {
      v.n = p.n;
      v.k = p.k;
    }
  }
  for (const [field, min, max] of [['N', 1, 16], ['K', 0, 4], ['MetadataN', 1, 16], ['MetadataK', 0, 4]] as const) {
    const value = b.int(field);
    if (value !== undefined && (value < min || value > max)) fail(`${field} must be between ${min} and ${max}.`);
  }
  const cgid = b.int('Cgid');
  if (cgid !== undefined && (cgid < 1 || cgid > 1_000_000)) fail('Cgid must be a positive integer.');
  if (cap !== undefined) v.capacityBytes = cap;
  if (snap !== undefined) v.snapshotCapacityBytes = snap;
  if (pool !== undefined) v.pool = pool;
  if (metaPool !== undefined) v.metadataPool = metaPool;
  v.n = b.int('N') ?? v.n;
  v.k = b.int('K') ?? v.k;
  v.metadataN = b.int('MetadataN') ?? v.metadataN;
  v.metadataK = b.int('MetadataK') ?? v.metadataK;
  v.sectorSize = sectorSize(b.str('SectorSize')) ?? v.sectorSize;
  v.stripedPools = pools(system, 'StripedPools', b.strs('StripedPools')) ?? v.stripedPools;
  v.stripedMetadataPools = pools(system, 'StripedMetadataPools', b.strs('StripedMetadataPools')) ?? v.stripedMetadataPools;
  v.groupedVolume = b.str('GroupedVolume') ?? v.groupedVolume;
  const tiers = b.raw()['Tiers'];
  if (tiers && typeof tiers === 'object') v.tiers = tiers as Tiers;
  if (cgid !== undefined) {
    v.cgid = cgid;
    if (!t.cgs.some((c) => c.id === cgid)) t.cgs.push({ id: cgid, frequency: [], retention: [], vss: false });
  }
}

const FREQUENCY = /^(hourly|daily|weekly|monthly|\d{1,4}[mhd])$/i;
const RETENTION = /^\d{1,5}[hdwm]?$/i;

export const templateHandlers: HandlerMap = {
  'POST /templates/create': (ctx) => {
    const name = requireName('Application', ctx.body.str('Application'));
    if (ctx.system.templates.some((t) => sameName(t.name, name))) fail(`Template '${name}' already exists.`);
    ctx.system.templates.push({ name, description: ctx.body.str('Description') ?? '', volumes: [], cgs: [] });
    return `Template '${name}' created.`;
  },

  'DELETE /templates/delete': (ctx) => {
    const t = requireTemplate(ctx.system, ctx.query.str('name'), 'name');
    ctx.system.templates = ctx.system.templates.filter((x) => x !== t);
    return `Template '${t.name}' deleted.`;
  },

  'PUT /templates/edit': (ctx) => {
    const t = requireTemplate(ctx.system, ctx.query.str('application'), 'application');
    return editNameAndDescription(ctx.body, t, ctx.system.templates, 'Template');
  },

  'GET /templates/list': (ctx) => {
    const name = ctx.query.str('name');
    const o = { desc: ctx.query.on('desc'), cg: ctx.query.on('cg'), vols: ctx.query.on('vols') };
    return { Data: ctx.system.templates.filter((t) => !name || sameName(t.name, name)).map((t) => templateView(t, o)) };
  },

  'PUT /templates/snapshots/schedule': (ctx) => {
    const t = requireTemplate(ctx.system, ctx.query.str('application'), 'application');
    let cgid = ctx.query.int('cgid');
    const volName = ctx.query.str('volume');
    if (cgid === undefined && volName) {
      const v = requireTemplateVolume(t, volName);
      if (v.cgid === undefined) fail(`Volume template '${v.name}' is not in a consistency group.`);
      cgid = v.cgid;
    }
    if (cgid === undefined) fail('Send cgid or volume to choose the consistency group.');
    const cg = t.cgs.find((c) => c.id === cgid);
    if (!cg) fail(`Consistency group ${cgid} does not exist in template '${t.name}'.`);
    const frequency = ctx.body.strs('Frequency') ?? [];
    const retention = ctx.body.strs('Retention') ?? [];
    if (frequency.length === 0) fail('Frequency is required, for example ["hourly"].');
    for (const f of frequency) if (!FREQUENCY.test(f)) fail(`Invalid Frequency '${f}': use hourly, daily, weekly, monthly or a count with m, h or d (15m).`);
    if (retention.length > 0 && retention.length !== frequency.length) fail('Retention must have one entry per Frequency entry.');
    for (const r of retention) if (!RETENTION.test(r)) fail(`Invalid Retention '${r}': use a count of snapshots, optionally with h, d, w or m.`);
    cg.frequency = frequency;
    cg.retention = retention;
    return `Snapshot schedule of consistency group ${cg.id} in template '${t.name}' set to ${frequency.join(', ')}.`;
  },

  'POST /templates/volumes/create': (ctx) => {
    const t = requireTemplate(ctx.system, ctx.body.str('Application'));
    const name = requireName('Volume', ctx.body.str('Volume'));
    if (t.volumes.some((v) => sameName(v.name, name))) fail(`Volume template '${name}' already exists in template '${t.name}'.`);
    if (ctx.body.int('CapacityInBytes') === undefined) fail('CapacityInBytes is required.');
    const first = ctx.system.pools[0];
    const v: TemplateVolumeState = {
      id: ++ctx.system.counters.template,
      name,
      capacityBytes: 0,
      snapshotCapacityBytes: 0,
      pool: first?.name ?? '',
      metadataPool: first?.name ?? '',
      stripedPools: [],
      stripedMetadataPools: [],
      n: first?.n ?? 2,
      k: first?.k ?? 1,
      metadataN: 2,
      metadataK: 2,
      sectorSize: '512',
      log2Stride: 8,
      cgid: undefined,
      groupedVolume: '',
      tiers: undefined,
    };
    applyVolumeFields(ctx.system, t, v, ctx.body);
    t.volumes.push(v);
    return `Volume template '${name}' added to template '${t.name}'.`;
  },

  'DELETE /templates/volumes/delete': (ctx) => {
    const t = requireTemplate(ctx.system, ctx.query.str('application'), 'application');
    const names = ctx.query.strs('volumes') ?? [];
    if (names.length === 0) fail('volumes is required: name the volume templates to delete.');
    const doomed = names.map((n) => requireTemplateVolume(t, n));
    t.volumes = t.volumes.filter((v) => !doomed.includes(v));
    return `Deleted ${doomed.length} volume template(s) from template '${t.name}'.`;
  },

  'PUT /templates/volumes/edit': (ctx) => {
    const t = requireTemplate(ctx.system, ctx.query.str('application'), 'application');
    const v = requireTemplateVolume(t, ctx.query.str('volume'));
    const newName = ctx.body.str('Volume');
    if (newName !== undefined && !sameName(newName, v.name)) {
      requireName('Volume', newName);
      if (t.volumes.some((x) => sameName(x.name, newName))) fail(`Volume template '${newName}' already exists in template '${t.name}'.`);
    }
    const edited = { ...v };
    applyVolumeFields(ctx.system, t, edited, ctx.body);
    if (newName !== undefined) edited.name = newName;
    Object.assign(v, edited);
    return `Volume template '${v.name}' in template '${t.name}' updated.`;
  },

  'GET /templates/volumes/list': (ctx: Ctx) => {
    const name = ctx.query.str('name');
    const o = { desc: ctx.query.on('desc'), cg: ctx.query.on('cg'), vols: true };
    return { Data: ctx.system.templates.filter((t) => !name || sameName(t.name, name)).map((t) => templateView(t, o)) };
  },
};
