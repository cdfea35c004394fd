import { fail } from '../errors.js';
import { requireApp, requireTargetSystem, requireVolume, sameName, systemById, volumeById } from '../state/lookup.js';
import type { ReplicationLink, ReplicationMode, VolumeState } from '../state/model.js';
import { LEVEL } from '../state/notifications.js';
import { linkStatus, linksOfVolume, removeLink, startReplication } from '../state/replication.js';
import { appView } from '../state/views.js';
import { oneOf } from './checks.js';
import type { Ctx, HandlerMap } from './context.js';

const MODES: Record<string, ReplicationMode> = { Synchronous: 'Synchronous', Semisynchronous: 'Semisynchronous', Asynchronous: 'Asynchronous' };

function modeOf(ctx: Ctx): ReplicationMode | undefined {
  const chosen = oneOf({ Synchronous: ctx.body.bool('Synchronous'), Semisynchronous: ctx.body.bool('Semisynchronous'), Asynchronous: ctx.body.bool('Asynchronous') });
  return chosen ? MODES[chosen] : undefined;
}

function role(ctx: Ctx, vol: VolumeState): 'Primary' | 'Secondary' | undefined {
  const links = linksOfVolume(ctx.site, ctx.system.id, vol.id);
  if (links.length === 0) return undefined;
  return links.some((l) => l.primary.systemId === ctx.system.id && l.primary.volumeId === vol.id) ? 'Primary' : 'Secondary';
}

/** Links of a volume on this system, narrowed to one remote system when named. */
function linksFor(ctx: Ctx, vol: VolumeState, targetName: string | undefined): ReplicationLink[] {
  let links = linksOfVolume(ctx.site, ctx.system.id, vol.id);
  if (targetName) {
    const target = requireTargetSystem(ctx.site, ctx.system, targetName);
    links = links.filter((l) => l.primary.systemId === target.id || l.secondary.systemId === target.id);
  }
  return links;
}

function remoteLabel(ctx: Ctx, link: ReplicationLink): string {
  const ref = link.primary.systemId === ctx.system.id ? link.secondary : link.primary;
  const sys = systemById(ctx.site, ref.systemId);
  const entry = sys ? volumeById(sys, ref.volumeId) : undefined;
  return `${sys?.name ?? '?'}/${entry?.app.name ?? '?'}/${entry?.vol.name ?? '?'}`;
}

export const replicationHandlers: HandlerMap = {
  'POST /replication/start': (ctx) => {
    const b = ctx.body;
    const app = requireApp(ctx.system, b.str('Application'));
    const vol = requireVolume(app, b.str('Volume'));
    const target = requireTargetSystem(ctx.site, ctx.system, b.str('TargetSystem'));
    const mode = modeOf(ctx) ?? 'Synchronous';
    const sourceFip = b.str('SourceFloatingIp');
    const targetFip = b.str('TargetFloatingIp');
    const local = sourceFip ? ctx.system.floatingIps.find((f) => sameName(f.name, sourceFip)) : undefined;
    if (sourceFip && !local) fail(`Floating IP '${sourceFip}' does not exist.`);
    const remote = targetFip ? target.floatingIps.find((f) => sameName(f.name, targetFip)) : undefined;
    if (targetFip && !remote) fail(`Floating IP '${targetFip}' does not exist on system '${target.name}'.`);
    if (vol.fs) {
      // NAS volumes move with their floating IP, so the pair of floating IPs must exist first.
      if (!local || !remote) fail(`Volume '${app.name}/${vol.name}' is a NAS volume: send SourceFloatingIp and TargetFloatingIp.`);
      if (!local.pairs.some((p) => p.systemId === target.id && p.name === remote.name))
        fail(`Floating IP '${local.name}' is not paired with '${target.name}/${remote.name}'; pair them first.`);
    }
    const targetApplication = b.str('TargetApplication') || app.name;
    const targetVolume = b.str('TargetVolume') || vol.name;
    const link = startReplication(ctx.site, { source: ctx.system, app, vol, target, targetApplication, targetVolume, mode, nowMs: ctx.nowMs });
    ctx.notifyOn(target, { level: LEVEL.info, module: 'Replication', message: `Secondary volume ${targetApplication}/${targetVolume} created for replication ${link.id} from ${ctx.system.name}.` });
    return `Replication ${link.id} of '${app.name}/${vol.name}' to '${target.name}/${targetApplication}/${targetVolume}' started (${mode}).`;
  },

  'PUT /replication/edit': (ctx) => {
    const app = requireApp(ctx.system, ctx.body.str('Application'));
    const vol = requireVolume(app, ctx.body.str('Volume'));
    const mode = modeOf(ctx);
    if (!mode) fail('Send one of Synchronous, Semisynchronous or Asynchronous set to true.');
    const links = linksFor(ctx, vol, ctx.body.str('TargetSystem')).filter((l) => l.primary.systemId === ctx.system.id && l.primary.volumeId === vol.id);
    if (links.length === 0) fail(`Volume '${app.name}/${vol.name}' is not replicated from this system${ctx.body.str('TargetSystem') ? ` to '${ctx.body.str('TargetSystem')}'` : ''}.`);
    if (links.length > 1) fail(`Volume '${app.name}/${vol.name}' is replicated to several systems: send TargetSystem.`);
    (links[0] as ReplicationLink).mode = mode;
    return `Replication of '${app.name}/${vol.name}' switched to ${mode}.`;
  },

  'GET /replication/list': (ctx) => {
    const appFilter = ctx.query.str('application');
    const volFilter = ctx.query.str('volume');
    const onlySecondary = ctx.query.flag('filterSecondary');
    const onlyPrimary = ctx.query.flag('filterPrimary');
    const keep = (v: VolumeState): boolean => {
      const r = role(ctx, v);
      if (!r || (volFilter && !sameName(v.name, volFilter))) return false;
      if (onlyPrimary && !onlySecondary) return r === 'Primary';
      if (onlySecondary && !onlyPrimary) return r === 'Secondary';
      return true;
    };
    const apps = ctx.system.apps.filter((a) => (!appFilter || sameName(a.name, appFilter)) && a.volumes.some(keep));
    return { Data: apps.map((a) => appView(ctx.site, ctx.system, a, ctx.nowMs, { desc: true, cg: false, vols: true, volumeFilter: keep })) };
  },

  'PUT /replication/primary': (ctx) => {
    const b = ctx.body;
    const secondaries = ctx.system.apps.flatMap((a) => a.volumes.filter((v) => role(ctx, v) === 'Secondary').map((v) => ({ app: a, vol: v })));
    let chosen: typeof secondaries;
    if (b.flag('AllSecondaryVolumes')) {
      chosen = secondaries;
    } else if ((b.ints('Cgids') ?? []).length > 0) {
      const cgids = new Set(b.ints('Cgids'));
      chosen = secondaries.filter((s) => s.vol.cgid !== undefined && cgids.has(s.vol.cgid));
    } else {
      const app = requireApp(ctx.system, b.str('Application'));
      const names = b.strs('Volume') ?? [];
      const vols = names.length > 0 ? names.map((n) => requireVolume(app, n)) : app.volumes;
      for (const v of vols) if (role(ctx, v) !== 'Secondary') fail(`Volume '${app.name}/${v.name}' is not a secondary volume.`);
      chosen = vols.map((v) => ({ app, vol: v }));
    }
    if (chosen.length === 0) fail('No secondary volumes match.');
    const force = b.flag('Force');
    const links = chosen.map(({ app, vol }) => {
      const link = linksOfVolume(ctx.site, ctx.system.id, vol.id).find((l) => l.secondary.systemId === ctx.system.id && l.secondary.volumeId === vol.id) as ReplicationLink;
      const st = linkStatus(link, ctx.nowMs);
      if (st.status !== 'InSync' && !force) fail(`Volume '${app.name}/${vol.name}' is not in sync (${st.status}, ${st.percent}%); use Force to promote it anyway.`);
      return { link, vol, inSync: st.status === 'InSync' };
    });
    const dummies = b.flag('ActivateAllDummyFloatingIps')
      ? ctx.system.floatingIps.filter((f) => f.dummy)
      : (b.strs('DummyFloatingToActivate') ?? []).map((n) => {
          const f = ctx.system.floatingIps.find((x) => sameName(x.name, n));
          if (!f) fail(`Floating IP '${n}' does not exist.`);
          if (!f.dummy) fail(`Floating IP '${f.name}' is not a dummy floating IP.`);
          return f;
        });
    for (const { link, vol, inSync } of links) {
      const oldPrimary = link.primary;
      link.primary = link.secondary;
      link.secondary = oldPrimary;
      vol.readOnly = false;
      const remote = systemById(ctx.site, oldPrimary.systemId);
      const remoteVol = remote ? volumeById(remote, oldPrimary.volumeId) : undefined;
      if (remoteVol) remoteVol.vol.readOnly = true;
      if (!inSync) {
        link.syncStartMs = ctx.nowMs;
        link.syncBytes = Math.floor(vol.capacityBytes * Math.max(vol.consumed, 0.05));
        link.announcedInSync = false;
      }
      if (remote) ctx.notifyOn(remote, { level: LEVEL.warning, module: 'Replication', message: `Volume ${remoteVol?.app.name}/${remoteVol?.vol.name} demoted to secondary: ${ctx.system.name} took over replication ${link.id}.` });
    }
    for (const f of dummies) f.dummy = false;
    ctx.notify({ level: LEVEL.warning, module: 'Replication', message: `Promoted ${chosen.length} volume(s) to primary: ${chosen.map((c) => `${c.app.name}/${c.vol.name}`).join(', ')}.` });
    ctx.audited = true;
    return `Promoted ${chosen.length} volume(s) to primary${dummies.length ? ` and activated ${dummies.length} floating IP(s)` : ''}.`;
  },

  'GET /replication/refresh': (ctx) => {
    const appName = ctx.query.str('application');
    const app = appName ? requireApp(ctx.system, appName) : undefined;
    const vol = app && ctx.query.str('volume') ? requireVolume(app, ctx.query.str('volume')) : undefined;
    const vols = vol ? [vol] : app ? app.volumes : ctx.system.apps.flatMap((a) => a.volumes);
    const links = [...new Set(vols.flatMap((v) => linksOfVolume(ctx.site, ctx.system.id, v.id)))];
    if (links.length === 0) fail('No replicated volumes match.');
    const reconnect = ctx.query.flag('reconnect');
    if (reconnect) for (const l of links) l.reconnectedAtMs = ctx.nowMs;
    return `${reconnect ? 'Reconnected' : 'Refreshed'} ${links.length} replication pair(s): ${links.map((l) => `${l.id} ${linkStatus(l, ctx.nowMs).status}`).join(', ')}.`;
  },

  'DELETE /replication/stop': (ctx) => {
    const q = ctx.query;
    const app = requireApp(ctx.system, q.str('application'));
    const vol = requireVolume(app, q.str('volume'));
    const links = linksFor(ctx, vol, q.str('targetSystem'));
    if (links.length === 0) fail(`Volume '${app.name}/${vol.name}' is not replicated${q.str('targetSystem') ? ` with '${q.str('targetSystem')}'` : ''}.`);
    if (vol.fs?.replicationMetadata && !q.flag('forceDeleteReplicationMetadata'))
      fail(`Volume '${app.name}/${vol.name}' holds NAS replication metadata; send forceDeleteReplicationMetadata=true to delete it.`);
    const labels = links.map((l) => remoteLabel(ctx, l));
    for (const link of links) {
      const otherId = link.primary.systemId === ctx.system.id ? link.secondary.systemId : link.primary.systemId;
      const other = systemById(ctx.site, otherId);
      removeLink(ctx.site, link);
      if (other) ctx.notifyOn(other, { level: LEVEL.info, module: 'Replication', message: `Replication ${link.id} with ${ctx.system.name}/${app.name}/${vol.name} stopped.` });
    }
    if (vol.fs) vol.fs.replicationMetadata = false;
    return `Replication of '${app.name}/${vol.name}' with ${labels.join(', ')} stopped.`;
  },
};
