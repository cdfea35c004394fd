import type { Args } from '../args.js';
import { fail } from '../errors.js';
import { sameName } from '../state/lookup.js';
import type { NasServerState, SystemState } from '../state/model.js';
import { nasView } from '../state/views.js';
import type { Ctx, HandlerMap } from './context.js';

const NETBIOS = /^[A-Za-z0-9][A-Za-z0-9-]{0,14}$/;

function findNas(system: SystemState, name: string | undefined, field: string): NasServerState {
  if (!name) fail(`${field} is required.`);
  return system.nasServers.find((n) => sameName(n.name, name)) ?? fail(`NAS server '${name}' does not exist.`);
}

function build(ctx: Ctx, b: Args, current: NasServerState | undefined): NasServerState {
  const name = b.str('Name') ?? current?.name ?? '';
  if (!NETBIOS.test(name)) fail(`Invalid Name '${name}': a NetBIOS name of 1-15 letters, digits or '-'.`);
  const floatingIps = b.has('FloatingIps') ? (b.strs('FloatingIps') ?? []) : (current?.floatingIps ?? []);
  if (floatingIps.length === 0) fail('FloatingIps is required: name at least one floating IP.');
  const resolved = floatingIps.map((f) => ctx.system.floatingIps.find((x) => sameName(x.name, f))?.name ?? fail(`Floating IP '${f}' does not exist.`));
  const pick = (field: string, fallback: string | undefined): string => (b.has(field) ? (b.str(field) ?? '') : (fallback ?? ''));
  const next: NasServerState = {
    name,
    floatingIps: resolved,
    nisDomain: pick('NisDomain', current?.nisDomain),
    nisServer: pick('NisServer', current?.nisServer),
    workgroup: pick('Workgroup', current?.workgroup),
    directoryService: pick('DirectoryService', current?.directoryService),
    username: pick('Username', current?.username),
    password: b.has('Password') ? b.str('Password') : current?.password,
  };
  if (next.workgroup && next.directoryService) fail('Send either Workgroup or DirectoryService, not both.');
  if (next.directoryService && (!next.username || !next.password)) fail('Joining a directory service needs Username and Password.');
  if (next.nisServer && !next.nisDomain) fail('NisServer needs NisDomain.');
  return next;
}

export const nasHandlers: HandlerMap = {
  'POST /nas_servers/create': (ctx) => {
    const next = build(ctx, ctx.body, undefined);
    const existing = ctx.system.nasServers.find((n) => sameName(n.name, next.name));
    if (existing && !ctx.body.flag('OverwriteExistingServer')) fail(`NAS server '${next.name}' already exists; set OverwriteExistingServer to replace it.`);
    ctx.system.nasServers = [...ctx.system.nasServers.filter((n) => n !== existing), next];
    return `NAS server '${next.name}' created.`;
  },

  'DELETE /nas_servers/delete': (ctx) => {
    const nas = findNas(ctx.system, ctx.query.str('netbios'), 'netbios');
    ctx.system.nasServers = ctx.system.nasServers.filter((n) => n !== nas);
    return `NAS server '${nas.name}' deleted.`;
  },

  'PUT /nas_servers/edit': (ctx) => {
    const nas = findNas(ctx.system, ctx.query.str('name'), 'name');
    const next = build(ctx, ctx.body, nas);
    const clash = ctx.system.nasServers.find((n) => sameName(n.name, next.name));
    if (clash && clash !== nas) fail(`NAS server '${next.name}' already exists.`);
    Object.assign(nas, next);
    return `NAS server '${nas.name}' updated.`;
  },

  'GET /nas_servers/list': (ctx) => ({ Data: ctx.system.nasServers.map(nasView) }),

  'PUT /nas_servers/directory_service/test_join': (ctx) => {
    const joined = ctx.system.nasServers.filter((n) => n.directoryService);
    if (joined.length === 0) fail('No NAS server is configured with a directory service.');
    return joined.map((n) => `NAS server '${n.name}' can join directory domain '${n.directoryService}' as '${n.username}': test succeeded.`).join('\n');
  },
};
