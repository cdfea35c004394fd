import { randomBytes } from 'node:crypto';
import { fail } from '../errors.js';
import { requireApp, requireVolume, sameName } from '../state/lookup.js';
import type { AppState, CgState, VolumeState } from '../state/model.js';
import { createApplication } from '../state/provision.js';
import { linksOfVolume, removeLink } from '../state/replication.js';
import { appView } from '../state/views.js';
import { editNameAndDescription, requireName } from './checks.js';
import type { Ctx, HandlerMap } from './context.js';
import { addMappings, deleteMappings } from './mappings.js';

function isSecondary(ctx: Ctx, vol: VolumeState): boolean {
  return linksOfVolume(ctx.site, ctx.system.id, vol.id).some((l) => l.secondary.systemId === ctx.system.id && l.secondary.volumeId === vol.id);
}

function findCg(ctx: Ctx, cgid: number | undefined, app: AppState | undefined, vol: VolumeState | undefined): { app: AppState; cg: CgState } {
  if (cgid !== undefined) {
    for (const a of ctx.system.apps) {
      const cg = a.cgs.find((c) => c.id === cgid);
      if (cg) return { app: a, cg };
    }
    fail(`Consistency group ${cgid} does not exist.`);
  }
  if (!app || !vol) fail('Send Cgid, or Application and Volume.');
  const cg = app.cgs.find((c) => c.id === vol.cgid);
  if (!cg) fail(`Volume '${app.name}/${vol.name}' is not in a consistency group.`);
  return { app, cg };
}

export const applicationHandlers: HandlerMap = {
  'POST /applications/create': (ctx) => {
    const name = requireName('Application', ctx.body.str('Application'));
    const templateName = ctx.body.str('Template');
    const template = templateName ? ctx.system.templates.find((t) => sameName(t.name, templateName)) : undefined;
    if (templateName && !template) fail(`Template '${templateName}' does not exist.`);
    const app = createApplication(ctx.system, name, template, ctx.body.str('Description') ?? '', ctx.nowMs);
    return template
      ? `Application '${app.name}' created from template '${template.name}' with ${app.volumes.length} volume(s).`
      : `Application '${app.name}' created.`;
  },

  'DELETE /applications/delete': (ctx) => {
    const app = requireApp(ctx.system, ctx.query.str('application'));
    const force = ctx.query.flag('force');
    const ids = new Set(app.volumes.map((v) => v.id));
    const mappings = ctx.system.mappings.filter((m) => ids.has(m.volumeId));
    const links = app.volumes.flatMap((v) => linksOfVolume(ctx.site, ctx.system.id, v.id));
    if (!force && mappings.length > 0) fail(`Application '${app.name}' has ${mappings.length} host mapping(s); delete them first or use force.`);
    if (!force && links.length > 0) fail(`Application '${app.name}' has replicated volumes; stop replication first or use force.`);
    ctx.system.mappings = ctx.system.mappings.filter((m) => !ids.has(m.volumeId));
    for (const link of new Set(links)) removeLink(ctx.site, link);
    ctx.system.apps = ctx.system.apps.filter((a) => a !== app);
    return `Application '${app.name}' deleted.`;
  },

  'PUT /applications/edit': (ctx) => {
    const app = requireApp(ctx.system, ctx.query.str('application'));
    return editNameAndDescription(ctx.body, app, ctx.system.apps, 'Application');
  },

  'GET /applications/list': (ctx) => {
    const filter = ctx.query.str('application');
    const apps = ctx.system.apps.filter((a) => !filter || sameName(a.name, filter));
    const o = { desc: ctx.query.on('desc'), cg: ctx.query.on('cg'), vols: ctx.query.on('vols') };
    return { Data: apps.map((a) => appView(ctx.site, ctx.system, a, ctx.nowMs, o)) };
  },

  'GET /applications/encryption/encryption_key_example': () => randomBytes(32).toString('hex'),

  'PUT /applications/encryption/supply_encryption_key': (ctx) => {
    const key = ctx.body.str('EncryptionKey');
    if (!key) fail('EncryptionKey is required.');
    if (!/^[0-9a-fA-F]{64}$/.test(key)) fail('EncryptionKey must be 64 hexadecimal digits (see encryption_key_example).');
    const app = ctx.body.str('Application') ? requireApp(ctx.system, ctx.body.str('Application')) : undefined;
    const vol = app && ctx.body.str('Volume') ? requireVolume(app, ctx.body.str('Volume')) : undefined;
    const found = findCg(ctx, ctx.body.int('Cgid'), app, vol);
    const encrypted = found.app.volumes.filter((v) => v.cgid === found.cg.id && v.encrypted);
    if (encrypted.length === 0) fail(`Consistency group ${found.cg.id} has no encrypted volumes.`);
    const wasOpen = found.cg.available;
    found.cg.available = true;
    return wasOpen ? `Consistency group ${found.cg.id} is already open.` : `Consistency group ${found.cg.id} opened.`;
  },

  'POST /applications/filesystems/add': (ctx) => {
    const app = requireApp(ctx.system, ctx.body.str('Application'));
    const names = ctx.body.strs('Volumes');
    const vols = names && names.length > 0 ? names.map((n) => requireVolume(app, n)) : app.volumes;
    if (vols.length === 0) fail(`Application '${app.name}' has no volumes.`);
    const profileText = ctx.body.str('Profile') ?? 'Journal';
    const profile = (['Journal', 'Ordered'] as const).find((p) => sameName(p, profileText));
    if (!profile) fail(`Invalid Profile '${profileText}': expected Journal or Ordered.`);
    const force = ctx.body.flag('Force');
    for (const v of vols) {
      if (isSecondary(ctx, v)) fail(`Volume '${app.name}/${v.name}' is a replication secondary and is read-only.`);
      if (v.fs && !force) fail(`Volume '${app.name}/${v.name}' already has a file system; use Force to recreate it.`);
    }
    for (const v of vols) {
      v.fs = {
        profile,
        mounted: false,
        replicationMetadata: ctx.body.flag('AddReplicationMetadata'),
        snap: ctx.body.flag('EnableSnapX'),
        createdAtMs: ctx.nowMs,
        lastMountAtMs: 0,
        mountCount: 0,
      };
    }
    return `Created ${profile} file system(s) on ${vols.map((v) => `'${v.name}'`).join(', ')}.`;
  },

  'PUT /applications/filesystems/edit': (ctx) => {
    const app = requireApp(ctx.system, ctx.query.str('application'));
    const vol = requireVolume(app, ctx.query.str('volume'));
    if (!vol.fs) fail(`Volume '${app.name}/${vol.name}' has no file system.`);
    const meta = ctx.body.bool('AddReplicationMetadata');
    const snap = ctx.body.bool('EnableSnapX');
    if (meta === undefined && snap === undefined) fail('Nothing to change: send AddReplicationMetadata or EnableSnapX.');
    if (meta === false && vol.fs.replicationMetadata && !ctx.body.flag('Force')) fail('Removing replication metadata needs Force.');
    if (meta !== undefined) vol.fs.replicationMetadata = meta;
    if (snap !== undefined) vol.fs.snap = snap;
    return `File system on '${app.name}/${vol.name}' updated.`;
  },

  'GET /applications/filesystems/list': (ctx) => {
    const appFilter = ctx.query.str('application');
    const volFilter = ctx.query.str('volume');
    const apps = ctx.system.apps.filter((a) => (!appFilter || sameName(a.name, appFilter)) && a.volumes.some((v) => v.fs));
    const keep = (v: VolumeState): boolean => v.fs !== undefined && (!volFilter || sameName(v.name, volFilter));
    return {
      Data: apps
        .filter((a) => a.volumes.some(keep))
        .map((a) => appView(ctx.site, ctx.system, a, ctx.nowMs, { desc: true, cg: false, vols: true, volumeFilter: keep })),
    };
  },

  'PUT /applications/filesystems/mount': (ctx) => {
    const app = requireApp(ctx.system, ctx.body.str('Application'));
    const volName = ctx.body.str('Volume');
    let vols: VolumeState[];
    if (volName) {
      const vol = requireVolume(app, volName);
      if (!vol.fs) fail(`Volume '${app.name}/${vol.name}' has no file system.`);
      if (vol.fs.mounted) fail(`File system on '${app.name}/${vol.name}' is already mounted.`);
      vols = [vol];
    } else {
      vols = app.volumes.filter((v) => v.fs && !v.fs.mounted);
      if (vols.length === 0) fail(`Application '${app.name}' has no unmounted file systems.`);
    }
    for (const v of vols) if (isSecondary(ctx, v)) fail(`Volume '${app.name}/${v.name}' is a replication secondary; promote it before mounting.`);
    for (const v of vols) {
      const fs = v.fs;
      if (!fs) continue;
      fs.mounted = true;
      fs.lastMountAtMs = ctx.nowMs;
      fs.mountCount++;
    }
    return `Mounted ${vols.map((v) => `'${app.name}/${v.name}'`).join(', ')}.`;
  },

  'POST /applications/mappings/add': (ctx) => addMappings(ctx),
  'DELETE /applications/mappings/delete': (ctx) => deleteMappings(ctx, ctx.query),
};
