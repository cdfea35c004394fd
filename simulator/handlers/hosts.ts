import { fail } from '../errors.js';
import { findHost, requireHost, requireTargetSystem, sameName, systemById, volumeIndex } from '../state/lookup.js';
import type { HostState, SystemState } from '../state/model.js';
import { hostView } from '../state/views.js';
import { requireIpv4, requireIqn, requireName, requireNqn, requireWwns } from './checks.js';
import type { Ctx, HandlerMap } from './context.js';
import { addMappings, deleteMappings, editMappings, listMappings } from './mappings.js';

function checkChapSecret(secret: string | undefined): string | undefined {
  if (secret === undefined || secret === '') return undefined;
  if (secret.length < 12 || secret.length > 16) fail('ChapSecret must be 12 to 16 characters long.');
  return secret;
}

/** Each initiator identity belongs to one host of the system. */
function checkUnique(system: SystemState, self: HostState | undefined, wwns: readonly string[], iqn: string, nqn: string): void {
  for (const h of system.hosts) {
    if (h === self) continue;
    const shared = wwns.find((w) => h.wwns.includes(w));
    if (shared) fail(`WWN ${shared} already belongs to host '${h.name}'.`);
    if (iqn && h.iqn === iqn) fail(`IQN ${iqn} already belongs to host '${h.name}'.`);
    if (nqn && h.nqn === nqn) fail(`NQN ${nqn} already belongs to host '${h.name}'.`);
  }
  if (new Set(wwns).size !== wwns.length) fail('Wwns contains the same WWN twice.');
}

function renameHostEverywhere(ctx: Ctx, host: HostState, newName: string): void {
  for (const m of ctx.system.mappings) if (m.host === host.name) m.host = newName;
  for (const p of host.pairs) {
    const remote = systemById(ctx.site, p.systemId);
    const remoteHost = remote ? findHost(remote, p.host) : undefined;
    for (const back of remoteHost?.pairs ?? []) if (back.systemId === ctx.system.id && back.host === host.name) back.host = newName;
  }
  host.name = newName;
}

export const hostHandlers: HandlerMap = {
  'POST /hosts/create': (ctx) => {
    const name = requireName('Name', ctx.body.str('Name'));
    if (findHost(ctx.system, name)) fail(`Host '${name}' already exists.`);
    const wwns = requireWwns(ctx.body.strs('Wwns') ?? []);
    const iqnText = ctx.body.str('Iqn');
    const nqnText = ctx.body.str('Nqn');
    const iqn = iqnText ? requireIqn(iqnText) : '';
    const nqn = nqnText ? requireNqn(nqnText) : '';
    const ip = requireIpv4('Ip', ctx.body.str('Ip'), true) ?? '';
    const chapSecret = checkChapSecret(ctx.body.str('ChapSecret'));
    checkUnique(ctx.system, undefined, wwns, iqn, nqn);
    ctx.system.hosts.push({ name, ip, wwns, iqn, nqn, chapSecret, pairs: [] });
    return `Host '${name}' created.`;
  },

  'DELETE /hosts/delete': (ctx) => {
    const host = requireHost(ctx.system, ctx.query.str('name'));
    const mapped = ctx.system.mappings.filter((m) => m.host === host.name).length;
    if (mapped > 0) fail(`Host '${host.name}' has ${mapped} mapping(s); delete them first.`);
    for (const p of host.pairs) {
      const remoteHost = findHost(systemById(ctx.site, p.systemId) ?? ctx.system, p.host);
      if (remoteHost) remoteHost.pairs = remoteHost.pairs.filter((b) => !(b.systemId === ctx.system.id && b.host === host.name));
    }
    ctx.system.hosts = ctx.system.hosts.filter((h) => h !== host);
    return `Host '${host.name}' deleted.`;
  },

  'PUT /hosts/edit': (ctx) => {
    const host = requireHost(ctx.system, ctx.query.str('name'));
    const b = ctx.body;
    const newName = b.str('Name');
    if (newName !== undefined && !sameName(newName, host.name)) {
      requireName('Name', newName);
      if (findHost(ctx.system, newName)) fail(`Host '${newName}' already exists.`);
    }
    const wwns = b.has('Wwns') ? requireWwns(b.strs('Wwns') ?? []) : host.wwns;
    const iqn = b.has('Iqn') ? (b.str('Iqn') ? requireIqn(b.str('Iqn') as string) : '') : host.iqn;
    const nqn = b.has('Nqn') ? (b.str('Nqn') ? requireNqn(b.str('Nqn') as string) : '') : host.nqn;
    const ip = b.has('Ip') ? (requireIpv4('Ip', b.str('Ip'), true) ?? '') : host.ip;
    const chap = b.has('ChapSecret') ? checkChapSecret(b.str('ChapSecret')) : host.chapSecret;
    checkUnique(ctx.system, host, wwns, iqn, nqn);
    host.wwns = wwns;
    host.iqn = iqn;
    host.nqn = nqn;
    host.ip = ip;
    host.chapSecret = chap;
    if (newName !== undefined && newName !== host.name) renameHostEverywhere(ctx, host, newName);
    return `Host '${host.name}' updated.`;
  },

  'GET /hosts/list': (ctx) => {
    const name = ctx.query.str('name');
    const q = ctx.query;
    const o = { wwn: q.on('wwn'), iqn: q.on('iqn'), nqn: q.on('nqn'), mapping: q.on('mapping'), ip: q.on('ip') };
    const index = o.mapping ? volumeIndex(ctx.system) : undefined;
    const hosts = name ? ctx.system.hosts.filter((h) => sameName(h.name, name)) : ctx.system.hosts;
    return { Data: hosts.map((h) => hostView(ctx.site, ctx.system, h, o, index)) };
  },

  'POST /hosts/pair': (ctx) => {
    const host = requireHost(ctx.system, ctx.body.str('Name'));
    const target = requireTargetSystem(ctx.site, ctx.system, ctx.body.str('TargetSystem'));
    const targetHostName = ctx.body.str('TargetHost');
    if (!targetHostName) fail('TargetHost is required.');
    const remote = findHost(target, targetHostName);
    if (!remote) fail(`Host '${targetHostName}' does not exist on system '${target.name}'.`);
    if (host.pairs.some((p) => p.systemId === target.id)) fail(`Host '${host.name}' is already paired with a host on system '${target.name}'.`);
    host.pairs.push({ systemId: target.id, host: remote.name });
    remote.pairs = remote.pairs.filter((p) => p.systemId !== ctx.system.id);
    remote.pairs.push({ systemId: ctx.system.id, host: host.name });
    ctx.notifyOn(target, { level: 2, module: 'Hosts', message: `Host '${remote.name}' paired with '${ctx.system.name}/${host.name}'.` });
    return `Host '${host.name}' paired with '${target.name}/${remote.name}'.`;
  },

  'DELETE /hosts/unpair': (ctx) => {
    const host = requireHost(ctx.system, ctx.query.str('name'));
    const target = requireTargetSystem(ctx.site, ctx.system, ctx.query.str('targetSystem'));
    const pair = host.pairs.find((p) => p.systemId === target.id);
    if (!pair) fail(`Host '${host.name}' is not paired with system '${target.name}'.`);
    host.pairs = host.pairs.filter((p) => p !== pair);
    const remote = findHost(target, pair.host);
    if (remote) remote.pairs = remote.pairs.filter((p) => !(p.systemId === ctx.system.id && p.host === host.name));
    return `Host '${host.name}' unpaired from system '${target.name}'.`;
  },

  'POST /hosts/mappings/add': (ctx) => addMappings(ctx),
  'DELETE /hosts/mappings/delete': (ctx) => deleteMappings(ctx, ctx.query),
  'PUT /hosts/mappings/edit': (ctx) => editMappings(ctx),
  'GET /hosts/mappings/list': (ctx) => listMappings(ctx),

  'PUT /hosts/wwn/add': (ctx) => {
    const host = requireHost(ctx.system, ctx.body.str('Name'));
    const wwns = requireWwns(ctx.body.strs('Wwns') ?? []);
    if (wwns.length === 0) fail('Wwns is required.');
    const present = wwns.find((w) => host.wwns.includes(w));
    if (present) fail(`WWN ${present} is already on host '${host.name}'.`);
    checkUnique(ctx.system, host, [...host.wwns, ...wwns], host.iqn, host.nqn);
    host.wwns.push(...wwns);
    return `Added ${wwns.length} WWN(s) to host '${host.name}'.`;
  },

  'DELETE /hosts/wwn/delete': (ctx) => {
    const host = requireHost(ctx.system, ctx.query.str('name'));
    const wwns = requireWwns(ctx.query.strs('wwns') ?? []);
    if (wwns.length === 0) fail('wwns is required.');
    const missing = wwns.find((w) => !host.wwns.includes(w));
    if (missing) fail(`WWN ${missing} is not on host '${host.name}'.`);
    host.wwns = host.wwns.filter((w) => !wwns.includes(w));
    return `Removed ${wwns.length} WWN(s) from host '${host.name}'.`;
  },
};
