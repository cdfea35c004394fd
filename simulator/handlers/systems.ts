import type { SystemsList } from '../../app/catalog/resources.js';
import { fail } from '../errors.js';
import { findSystem, sameName } from '../state/lookup.js';
import type { SystemState } from '../state/model.js';
import { systemView } from '../state/views.js';
import { requireName } from './checks.js';
import type { Ctx, HandlerMap } from './context.js';

function pickSystem(ctx: Ctx, name: string | undefined, id: number | undefined): SystemState {
  if (name === undefined && id === undefined) fail('Send the system name or id.');
  const byName = name !== undefined ? ctx.site.systems.find((s) => sameName(s.name, name)) : undefined;
  const byId = id !== undefined ? ctx.site.systems.find((s) => s.id === id) : undefined;
  if (name !== undefined && !byName) fail(`System '${name}' does not exist at this site.`);
  if (id !== undefined && !byId) fail(`System with id ${id} does not exist at this site.`);
  if (byName && byId && byName !== byId) fail(`System '${name}' does not have id ${id}.`);
  return (byName ?? byId) as SystemState;
}

export const systemHandlers: HandlerMap = {
  'GET /systems/list': (ctx) => {
    const all = ctx.query.flag('connectToAllSystems');
    const showNodes = ctx.query.flag('showNodes');
    const dialects = ctx.fleet.dialects;
    if (dialects.has('empty-system-list')) return { Systems: [], Message: 'The management service is starting: the system list is not available yet.' } satisfies SystemsList;
    const last = ctx.site.systems.length > 1 ? ctx.site.systems.at(-1) : undefined;
    const dropped = dialects.has('unlisted-system') ? last : undefined;
    const listed = ctx.site.systems.filter((s) => s !== dropped);
    const out: SystemsList = {
      Systems: listed.map((s) => systemView(ctx.site, s, ctx.session, ctx.nowMs, showNodes)),
      Message: dropped
        ? `System '${dropped.name}' is not listed: its relay connection is down.`
        : all
          ? `Connected to all ${listed.length} systems.`
          : `${listed.length} systems at site ${ctx.site.name}.`,
    };
    if (all) for (const s of out.Systems ?? []) s.RefreshedCachedQueryCount = 1;
    // Dialects unnamed-system and duplicate-system-names: the last system listed without a name, or with the first's.
    const lastView = (out.Systems ?? []).length > 1 ? out.Systems?.at(-1) : undefined;
    if (lastView && dialects.has('unnamed-system')) delete lastView.Name;
    if (lastView && dialects.has('duplicate-system-names')) lastView.Name = out.Systems?.[0]?.Name;
    // Dialect no-current-system: the list does not say which system the session works on.
    if (dialects.has('no-current-system')) for (const s of out.Systems ?? []) delete s.IsCurrentlyConnectedSystem;
    return out;
  },

  'PUT /systems/rename': (ctx) => {
    const system = pickSystem(ctx, ctx.body.str('Name'), ctx.body.int('Id'));
    const newName = requireName('Newname', ctx.body.str('Newname'));
    const clash = findSystem(ctx.site, newName);
    if (clash && clash !== system) fail(`System '${newName}' already exists at this site.`);
    const old = system.name;
    system.name = newName;
    return `System '${old}' renamed to '${newName}'.`;
  },

  'GET /systems/select': (ctx) => {
    const system = pickSystem(ctx, ctx.query.str('name'), ctx.query.int('id'));
    if (ctx.session) ctx.session.systemId = system.id;
    // Dialect shared-selection: the selection is the user's, so every session of theirs moves with it.
    if (ctx.session && ctx.fleet.dialects.has('shared-selection')) {
      for (const s of ctx.site.sessions.values()) if (s.user === ctx.session.user) s.systemId = system.id;
    }
    return `Selected system '${system.name}'.`;
  },
};
