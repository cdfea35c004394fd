import type { Node } from '../../app/catalog/resources.js';
import { fail } from '../errors.js';
import { findNode, managementNode, partnerOf, requireNode } from '../state/lookup.js';
import type { NodeState, SystemState } from '../state/model.js';
import { LEVEL } from '../state/notifications.js';
import { nodeView } from '../state/views.js';
import { requireIpv4, requireName } from './checks.js';
import type { Ctx, HandlerMap } from './context.js';
import { runUtility } from './utilities.js';

function runningNode(system: SystemState, name: string | undefined): NodeState {
  const node = name ? requireNode(system, name) : managementNode(system);
  if (node.state !== 'Running') fail(`Node '${node.name}' is down.`);
  return node;
}

/** Initiator sessions on a node: every host with a mapping has one session per protocol identity. */
function sessionsOf(system: SystemState, node: NodeState): string[] {
  if (node.state !== 'Running') return [];
  const mapped = new Set(system.mappings.map((m) => m.host));
  const out: string[] = [];
  for (const h of system.hosts) {
    if (!mapped.has(h.name)) continue;
    if (h.iqn) out.push(`iSCSI ${h.iqn} (${h.ip || 'unknown'}) -> ${node.iqn}`);
    if (h.nqn) out.push(`NVMe/TCP ${h.nqn} (${h.ip || 'unknown'}) -> nqn.2012-06.com.fleetdeck:${system.name}`);
    for (const [i, w] of h.wwns.entries()) {
      const port = node.hbas[i % Math.max(1, node.hbas.length)];
      if (port) out.push(`FC ${w} -> ${port.wwpn}`);
    }
  }
  return out;
}

function tunnel(ctx: Ctx, enable: boolean): string {
  const node = requireNode(ctx.system, ctx.body.str('Node'));
  if (node.tunnel === enable) fail(`The support tunnel of node '${node.name}' is already ${enable ? 'enabled' : 'disabled'}.`);
  node.tunnel = enable;
  node.tunnelSession = enable ? `support.fleetdeck.example:22 session ${node.id}-${Math.floor(ctx.nowMs / 1000) % 100000}` : '';
  return `Support tunnel of node '${node.name}' ${enable ? 'enabled' : 'disabled'}.`;
}

export const nodeHandlers: HandlerMap = {
  'PUT /nodes/chap': (ctx) => {
    const name = ctx.body.str('ChapName') ?? '';
    const secret = ctx.body.str('ChapSecret') ?? '';
    if (name === '' && secret === '') {
      ctx.system.chap = { name: '', secret: undefined };
      return 'Target CHAP disabled.';
    }
    if (!/^[\x21-\x7e]{1,64}$/.test(name)) fail('ChapName must be 1-64 printable characters without spaces.');
    if (secret.length < 12 || secret.length > 16) fail('ChapSecret must be 12 to 16 characters long.');
    ctx.system.chap = { name, secret };
    return `Target CHAP set for '${name}'.`;
  },

  'PUT /nodes/connect': (ctx) => {
    const node = requireNode(ctx.system, ctx.body.str('Node'));
    if (node.state !== 'Running') fail(`Node '${node.name}' is down.`);
    ctx.system.managementNodeId = node.id;
    return `Management connection moved to node '${node.name}'.`;
  },

  'PUT /nodes/edit': (ctx) => {
    const node = requireNode(ctx.system, ctx.body.str('Node'));
    const newName = requireName('Newname', ctx.body.str('Newname'));
    const clash = findNode(ctx.system, newName);
    if (clash && clash !== node) fail(`Node '${newName}' already exists.`);
    const old = node.name;
    node.name = newName;
    return `Node '${old}' renamed to '${newName}'.`;
  },

  'PUT /nodes/takeover': (ctx) => {
    const node = requireNode(ctx.system, ctx.body.str('Node'));
    if (node.ha === 'TakenOver') fail(`Node '${node.name}' is already taken over.`);
    const partner = partnerOf(ctx.system, node);
    if (!partner) fail(`Node '${node.name}' has no HA partner.`);
    if (node.ha === 'TakeoverActive') fail(`Node '${node.name}' is running the services of '${partner.name}'; give back first.`);
    if (partner.state !== 'Running') fail(`HA partner '${partner.name}' is down; it cannot take over.`);
    partner.services = [...new Set([...partner.services, ...node.services])];
    node.services = [];
    node.state = 'Down';
    node.ha = 'TakenOver';
    partner.ha = 'TakeoverActive';
    if (ctx.system.managementNodeId === node.id) ctx.system.managementNodeId = partner.id;
    ctx.notify({ level: LEVEL.warning, module: 'HA', message: `Node '${partner.name}' took over the services of node '${node.name}'.`, node: partner.name });
    ctx.audited = true;
    return `Node '${partner.name}' took over node '${node.name}'.`;
  },

  'PUT /nodes/giveback': (ctx) => {
    const taken = ctx.system.nodes.filter((n) => n.ha === 'TakenOver');
    if (taken.length === 0) fail('No node is taken over.');
    for (const node of taken) {
      const partner = partnerOf(ctx.system, node);
      node.state = 'Running';
      node.ha = 'Normal';
      node.services = [...node.ownServices];
      if (partner) {
        partner.ha = 'Normal';
        partner.services = [...partner.ownServices];
      }
      ctx.notify({ level: LEVEL.info, module: 'HA', message: `Services given back to node '${node.name}'.`, node: node.name });
    }
    ctx.audited = true;
    return `Gave back services to ${taken.map((n) => `'${n.name}'`).join(', ')}.`;
  },

  'PUT /nodes/isns': (ctx) => {
    const address = ctx.body.str('Address');
    const acl = ctx.body.bool('AccessControl');
    if (address === undefined && acl === undefined) fail('Send Address or AccessControl.');
    if (address !== undefined && address !== '') requireIpv4('Address', address);
    if (address !== undefined) ctx.system.isns.address = address.trim();
    if (acl !== undefined) ctx.system.isns.accessControl = acl;
    return ctx.system.isns.address ? `iSNS server set to ${ctx.system.isns.address}.` : 'iSNS server cleared.';
  },

  'GET /nodes/list': (ctx) => {
    const q = ctx.query;
    const o = { sensors: q.flag('sensors'), gateway: q.on('gateway'), vols: q.on('vols'), ip: q.on('ip'), sed: q.on('sed') };
    return { Data: ctx.system.nodes.map((n) => nodeView(ctx.system, n, ctx.nowMs, o)) };
  },

  'GET /nodes/sessions': (ctx) => {
    const name = ctx.query.str('node');
    const nodes = name ? [requireNode(ctx.system, name)] : ctx.system.nodes;
    const data: Node[] = nodes.map((n) => ({ Name: n.name, Id: n.id, State: n.state, Sessions: sessionsOf(ctx.system, n) }));
    return { Data: data };
  },

  'GET /nodes/utils/run': async (ctx) => {
    const utility = ctx.query.str('utility');
    if (!utility) fail('utility is required.');
    const timeout = ctx.query.int('timeoutSeconds') ?? 10;
    if (timeout < 1 || timeout > 3600) fail('timeoutSeconds must be between 1 and 3600.');
    const node = runningNode(ctx.system, ctx.query.str('node'));
    const out = await runUtility(ctx.system, node, utility, ctx.query.str('args') ?? '', timeout, ctx.nowMs, ctx.wait);
    ctx.notify({ level: LEVEL.info, module: 'Nodes', message: `Utility '${utility}' run on node '${node.name}'.`, node: node.name });
    ctx.audited = true;
    return out;
  },

  'PUT /nodes/support/tunnel/enable': (ctx) => tunnel(ctx, true),
  'PUT /nodes/support/tunnel/disable': (ctx) => tunnel(ctx, false),

  'GET /nodes/support/tunnel/status': (ctx) => ({
    Data: ctx.system.nodes.map((n): Node => ({
      Name: n.name,
      Id: n.id,
      SupportTunnelStatus: n.tunnel ? `Enabled (${n.tunnelSession})` : 'Disabled',
    })),
  }),
};

