import type { DrivePerformance, Node, Ping } from '../../app/catalog/resources.js';
import { fail } from '../errors.js';
import { findPool } from '../state/capacity.js';
import { allDrives, managementNode, requireNode } from '../state/lookup.js';
import type { ComponentBase, DriveState, NicIpState, NicState, NodeState, SystemState } from '../state/model.js';
import { noise } from '../random.js';
import { sasRole, sasSmartText } from '../state/sas-smart.js';
import { pastFailureDrive, smartJson, smartText } from '../state/smart.js';
import { chassisView, cpuView, driveView, hbaView, memoryView, nicView, nodeSummary } from '../state/views.js';
import type { ComponentOptions } from '../state/views.js';
import { inSubnet, isIpv4, requirePort } from './checks.js';
import type { Ctx, HandlerMap } from './context.js';

/** resources/list resourceType values (case-insensitive; plural forms accepted). */
const RESOURCE_TYPES = ['Drive', 'Cpu', 'Memory', 'Nic', 'Hba', 'Chassis'] as const;
type ResourceType = (typeof RESOURCE_TYPES)[number];
const ALIASES: Record<string, ResourceType> = {
  drive: 'Drive', drives: 'Drive', disk: 'Drive', disks: 'Drive',
  cpu: 'Cpu', cpus: 'Cpu',
  memory: 'Memory', memorymodule: 'Memory', memorymodules: 'Memory',
  nic: 'Nic', nics: 'Nic', network: 'Nic', networkinterfacecard: 'Nic', networkinterfacecards: 'Nic',
  hba: 'Hba', hbas: 'Hba', fibrechannel: 'Hba', fibrechannelhostbusadapters: 'Hba',
  chassis: 'Chassis',
};

function componentFilter(ctx: Ctx): (c: ComponentBase) => boolean {
  const errors = ctx.query.flag('errors');
  const ids = ctx.query.ints('ids');
  const idSet = ids && ids.length > 0 ? new Set(ids) : undefined;
  return (c) => (!errors || c.status !== 'OK') && (!idSet || idSet.has(c.id));
}

/** Drive views follow the `sas-smart` dialect when it is on. */
const sasDrives = (ctx: Ctx): { sas: boolean } => ({ sas: ctx.fleet.dialects.has('sas-smart') });

function options(ctx: Ctx): ComponentOptions {
  return { details: ctx.query.flag('details'), sensors: ctx.query.flag('sensors'), seed: ctx.system.seriesSeed, nowMs: ctx.nowMs };
}

/** A quantified group that itself contains a quantifier, e.g. (a+)+ : refused, since it can backtrack for minutes. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*[+*{?]/;

function compilePatterns(patterns: readonly string[] | undefined): RegExp[] {
  return (patterns ?? []).map((p) => {
    if (p.length > 200) fail(`Pattern too long: at most 200 characters.`);
    if (NESTED_QUANTIFIER.test(p)) fail(`Pattern '${p}' nests quantifiers; simplify it.`);
    try {
      return new RegExp(p, 'i');
    } catch {
      fail(`Invalid pattern '${p}': not a valid regular expression.`);
    }
  });
}

function driveMatches(d: DriveState, res: readonly RegExp[]): boolean {
  return res.length === 0 || res.some((r) => r.test(d.name) || r.test(d.model) || r.test(d.serial) || r.test(d.vendor) || r.test(d.device));
}

/** All IPv4 addresses of every simulated system (NICs, floating and replication floating IPs, hosts). */
function fleetAddresses(ctx: Ctx): Set<string> {
  const out = new Set<string>();
  for (const site of ctx.fleet.sites)
    for (const sys of site.systems) {
      for (const n of sys.nodes) for (const nic of n.nics) for (const ip of nic.ips) out.add(ip.ip);
      for (const f of sys.floatingIps) out.add(f.address);
      for (const r of sys.replicationFloatingIps) for (const a of r.addresses) out.add(a);
      for (const h of sys.hosts) if (h.ip) out.add(h.ip);
    }
  return out;
}

function findIp(system: SystemState, ip: string): { nic: NicState; entry: NicIpState } | undefined {
  for (const n of system.nodes) for (const nic of n.nics) for (const entry of nic.ips) if (entry.ip === ip.trim()) return { nic, entry };
  return undefined;
}

const PING_TYPES = ['ICMP', 'TCP', 'iSCSI', 'Replication'] as const;

/** Expected results per drive type: [random IOPS, sequential MB/s, latency ms]. */
const EXPECTED = { HDD: [210, 260, 8.5], SSD: [92_000, 530, 0.2], NVMe: [720_000, 3_300, 0.09] } as const;
const TESTS = ['RandomRead4K', 'RandomWrite4K', 'SequentialRead1M', 'SequentialWrite1M'] as const;

function analyze(system: SystemState, node: NodeState, d: DriveState, seconds: number): DrivePerformance[] {
  const [iops, mbps, lat] = EXPECTED[d.type];
  const weak = d.status !== 'OK' ? 0.45 : 1;
  return TESTS.map((test, i) => {
    const j = 0.9 + 0.2 * noise(system.seriesSeed, d.id, 31 + i);
    const write = test.includes('Write') ? 0.8 : 1;
    const random = test.startsWith('Random');
    const resultIops = Math.round((random ? iops : (mbps * 1e6) / 1_048_576) * j * weak * write);
    const throughput = random ? (resultIops * 4096) / 1e6 : mbps * j * weak * write;
    return {
      NodeName: node.name,
      PerformanceTestName: test,
      Entity: `${node.name}/${d.name}`,
      Status: weak < 1 ? 'BelowExpectedPerformance' : 'SystemPerformance',
      PerformanceResult: {
        IOPS: resultIops,
        Throughput: `${throughput.toFixed(1)} MB/s`,
        LatencyInMilliseconds: Math.round((random ? lat : lat * 4) * (2 - j) * (weak < 1 ? 3 : 1) * 1000) / 1000,
        DurationInSec: seconds,
      },
    };
  });
}

export const resourceHandlers: HandlerMap = {
  'DELETE /resources/delete': (ctx) => {
    const components = ctx.system.nodes.flatMap((n): Array<{ node: NodeState; c: ComponentBase }> =>
      [...n.drives, ...n.cpus, ...n.memory, ...n.nics, ...n.hbas, ...n.chassis].map((c) => ({ node: n, c })),
    );
    const ids = ctx.query.ints('entityIds') ?? [];
    let doomed: ComponentBase[];
    if (ctx.query.flag('all')) {
      doomed = components.filter((x) => x.c.status === 'Missing').map((x) => x.c);
      if (doomed.length === 0) fail('No resources are missing.');
    } else {
      if (ids.length === 0) fail('Send entityIds or all=true.');
      doomed = ids.map((id) => {
        const found = components.find((x) => x.c.id === id);
        if (!found) fail(`Resource ${id} does not exist.`);
        if (found.c.status !== 'Missing') fail(`Resource ${id} is not missing (status ${found.c.status}); only missing resources can be removed.`);
        return found.c;
      });
    }
    const gone = new Set(doomed);
    for (const n of ctx.system.nodes) {
      n.drives = n.drives.filter((x) => !gone.has(x));
      n.cpus = n.cpus.filter((x) => !gone.has(x));
      n.memory = n.memory.filter((x) => !gone.has(x));
      n.nics = n.nics.filter((x) => !gone.has(x));
      n.hbas = n.hbas.filter((x) => !gone.has(x));
      n.chassis = n.chassis.filter((x) => !gone.has(x));
    }
    return `Removed ${doomed.length} missing resource(s): ${doomed.map((c) => c.id).join(', ')}.`;
  },

  'GET /resources/list': (ctx) => {
    const typeText = ctx.query.str('resourceType');
    let type: ResourceType | undefined;
    if (typeText) {
      type = ALIASES[typeText.toLowerCase().replace(/[\s_-]/g, '')];
      if (!type) fail(`Invalid resourceType '${typeText}': expected one of ${RESOURCE_TYPES.join(', ')}.`);
    }
    const nodeName = ctx.query.str('node');
    const nodes = nodeName ? [requireNode(ctx.system, nodeName)] : ctx.system.nodes;
    const keep = componentFilter(ctx);
    const o = options(ctx);
    const want = (t: ResourceType): boolean => type === undefined || type === t;
    const data = nodes.map((n): Node => {
      const out: Node = nodeSummary(ctx.system, n, ctx.nowMs);
      if (want('Drive')) out.Drives = n.drives.filter(keep).map((d) => driveView(ctx.system, d, { ...o, led: o.details, ...sasDrives(ctx) }));
      if (want('Cpu')) out.CPU = n.cpus.filter(keep).map((c) => cpuView(c, o));
      if (want('Memory')) out.Memory = n.memory.filter(keep).map((m) => memoryView(m, o));
      if (want('Nic')) out.NetworkInterfaceCards = n.nics.filter(keep).map((x) => nicView(x, o));
      if (want('Hba')) out.FibreChannelHostBusAdapters = n.hbas.filter(keep).map((h) => hbaView(h, o));
      if (want('Chassis')) out.Chassis = n.chassis.filter(keep).map((c) => chassisView(c, o));
      return out;
    });
    return { Data: data };
  },

  'PUT /resources/drives/approve': (ctx) => {
    const b = ctx.body;
    const candidates = allDrives(ctx.system).filter(({ drive }) => drive.approved === 'NotApproved' && drive.status !== 'Missing');
    const ids = b.ints('DriveIds') ?? [];
    const patterns = compilePatterns(b.strs('Patterns'));
    const count = b.int('Count');
    if (count !== undefined && count < 1) fail('Count must be at least 1.');
    let chosen = candidates;
    if (b.flag('All')) {
      chosen = candidates;
    } else if (ids.length > 0) {
      chosen = ids.map((id) => {
        const found = allDrives(ctx.system).find(({ drive }) => drive.id === id);
        if (!found) fail(`Drive ${id} does not exist.`);
        if (found.drive.approved === 'Approved') fail(`Drive ${id} is already approved.`);
        return found;
      });
    } else if (patterns.length > 0) {
      chosen = candidates.filter(({ drive }) => driveMatches(drive, patterns));
    } else if (count === undefined) {
      fail('Choose drives: DriveIds, All, Patterns or Count.');
    }
    if (count !== undefined) chosen = chosen.slice(0, count);
    if (chosen.length === 0) fail('No unapproved drives match.');
    const manual = b.str('ManualPool');
    const pool = manual ? findPool(ctx.system, manual) : undefined;
    if (manual && !pool) fail(`ManualPool '${manual}' does not exist.`);
    for (const { drive } of chosen) {
      const target = pool ?? ctx.system.pools.find((p) => p.type === drive.type);
      if (!target) fail(`No pool for ${drive.type} drives; send ManualPool.`);
      if (target.type !== drive.type) fail(`Drive ${drive.id} is ${drive.type} but pool '${target.name}' holds ${target.type} drives.`);
    }
    for (const { drive } of chosen) {
      drive.approved = 'Approved';
      drive.pool = (pool ?? ctx.system.pools.find((p) => p.type === drive.type))?.name ?? '';
    }
    return `Approved ${chosen.length} drive(s): ${chosen.map(({ drive }) => drive.id).join(', ')}.`;
  },

  'GET /resources/drives/list': (ctx) => {
    const nodeName = ctx.query.str('node');
    // Without a node the document says results come from the first available node.
    const node = nodeName ? requireNode(ctx.system, nodeName) : (ctx.system.nodes.find((n) => n.state === 'Running') ?? managementNode(ctx.system));
    const keep = componentFilter(ctx);
    const patterns = compilePatterns(ctx.query.strs('patterns'));
    const o = { ...options(ctx), led: ctx.query.flag('led'), ...sasDrives(ctx) };
    return { Data: node.drives.filter((d) => keep(d) && driveMatches(d, patterns)).map((d) => driveView(ctx.system, d, o)) };
  },

  'GET /resources/drives/performance_analyzer': async (ctx) => {
    const q = ctx.query;
    const seconds = q.int('iterationTimeInSeconds') ?? 10;
    if (seconds < 1 || seconds > 600) fail('iterationTimeInSeconds must be between 1 and 600.');
    const ids = new Set(q.ints('driveIds') ?? []);
    const types = new Set<string>([...(q.flag('hdd') ? ['HDD'] : []), ...(q.flag('ssd') ? ['SSD'] : []), ...(q.flag('nvme') ? ['NVMe'] : [])]);
    const poolName = q.str('manualPools');
    if (poolName && !findPool(ctx.system, poolName)) fail(`Pool '${poolName}' does not exist.`);
    if (!q.flag('all') && ids.size === 0 && types.size === 0 && !poolName) fail('Choose drives: driveIds, all, ssd, hdd, nvme or manualPools.');
    const usable = allDrives(ctx.system).filter(({ drive }) => drive.approved === 'Approved' && drive.status !== 'Missing' && drive.status !== 'Failed');
    for (const id of ids) if (!allDrives(ctx.system).some(({ drive }) => drive.id === id)) fail(`Drive ${id} does not exist.`);
    const chosen = usable.filter(
      ({ drive }) => q.flag('all') || ids.has(drive.id) || types.has(drive.type) || (poolName !== undefined && drive.pool.toLowerCase() === poolName.toLowerCase()),
    );
    if (chosen.length === 0) fail('No approved, working drives match.');
    const results = chosen.flatMap(({ node, drive }) => analyze(ctx.system, node, drive, seconds));
    // Dialect slow-analyzer: every test of every drive runs its iteration, one after another.
    if (ctx.fleet.dialects.has('slow-analyzer')) await ctx.wait(results.length * seconds * 1000);
    return { Data: results };
  },

  'GET /resources/drives/smart': (ctx) => {
    const id = ctx.query.int('driveid');
    if (id === undefined) fail('driveid is required.');
    const nodeName = ctx.query.str('node');
    const nodes = nodeName ? [requireNode(ctx.system, nodeName)] : ctx.system.nodes;
    const drive = nodes.flatMap((n) => n.drives).find((d) => d.id === id);
    if (!drive) fail(`Drive ${id} does not exist${nodeName ? ` on node '${nodeName}'` : ''}.`);
    if (drive.status === 'Missing') fail(`Drive ${id} is missing: no SMART data.`);
    const sas = ctx.fleet.dialects.has('sas-smart') ? sasSmartText(drive, ctx.nowMs, sasRole(ctx.system, drive)) : undefined;
    if (sas !== undefined) return sas;
    // smart-brief: the first healthy ATA drive of the first node failed in the past.
    const brief = ctx.fleet.dialects.has('smart-brief');
    const form = { brief, past: brief && pastFailureDrive(ctx.system) === drive };
    return ctx.fleet.dialects.has('smart-json') ? smartJson(drive, ctx.nowMs, form) : smartText(drive, ctx.nowMs, form);
  },

  'PUT /resources/drives/sed/supply_password': (ctx) => {
    const password = ctx.body.str('Password');
    if (!password || password.length < 8 || password.length > 32) fail('Password must be 8 to 32 characters long.');
    ctx.system.sedPassword = password;
    let unlocked = 0;
    for (const { drive } of allDrives(ctx.system))
      if (drive.sed === 'Locked') {
        drive.sed = 'Unlocked';
        unlocked++;
      }
    return `SED password supplied; ${unlocked} drive(s) unlocked.`;
  },

  'PUT /resources/network/iscsi': (ctx) => {
    const ips = ctx.query.strs('ips') ?? [];
    if (ips.length === 0) fail('ips is required.');
    const enable = ctx.body.bool('Enable');
    if (enable === undefined) fail('Enable is required.');
    const found = ips.map((ip) => findIp(ctx.system, ip) ?? fail(`IP address ${ip} is not configured on any node.`));
    for (const { nic } of found) if (nic.role === 'management' && enable && !ctx.body.flag('Force')) fail(`${nic.name} is a management interface; use Force to enable iSCSI on it.`);
    for (const { entry } of found) entry.iscsi = enable;
    return `iSCSI ${enable ? 'enabled' : 'disabled'} on ${ips.join(', ')}.`;
  },

  'GET /resources/network/list': (ctx) => {
    const keep = componentFilter(ctx);
    const o = options(ctx);
    return {
      Data: ctx.system.nodes.map((n): Node => ({ ...nodeSummary(ctx.system, n, ctx.nowMs), NetworkInterfaceCards: n.nics.filter(keep).map((x) => nicView(x, o)) })),
    };
  },

  'PUT /resources/network/nvmeof': (ctx) => {
    const ip = ctx.query.str('ip');
    if (!ip) fail('ip is required.');
    const found = findIp(ctx.system, ip);
    if (!found) fail(`IP address ${ip} is not configured on any node.`);
    const enable = ctx.body.bool('Enable');
    if (enable === undefined) fail('Enable is required.');
    const port = String(requirePort('Port', ctx.body.int('Port'), 4420));
    const rdma = ctx.body.bool('Rdma');
    const tcp = ctx.body.bool('Tcp') ?? (rdma === true ? false : true);
    const e = found.entry;
    if (tcp) {
      e.tcpNvmeof = enable;
      e.tcpPorts = enable ? [...new Set([...e.tcpPorts, port])] : e.tcpPorts.filter((p) => p !== port);
    }
    if (rdma) {
      e.rdmaNvmeof = enable;
      e.rdmaPorts = enable ? [...new Set([...e.rdmaPorts, port])] : e.rdmaPorts.filter((p) => p !== port);
    }
    return `NVMe-oF ${[tcp ? 'TCP' : '', rdma ? 'RDMA' : ''].filter(Boolean).join(' and ')} ${enable ? 'enabled' : 'disabled'} on ${ip}:${port}.`;
  },

  /**
   * Ping (parameters not shown by the document): one entry per NIC of the node. Addresses in the
   * system's own subnets or belonging to any simulated system answer; others do not.
   */
  'GET /resources/network/ping': (ctx) => {
    const q = ctx.query;
    const address = q.str('address')?.trim();
    if (!address) fail('address is required.');
    const isIp = isIpv4(address);
    if (!isIp && !/^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$/.test(address)) fail(`Invalid address '${address}': expected an IPv4 address or a host name.`);
    const typeText = q.str('pingType') ?? 'ICMP';
    const pingType = PING_TYPES.find((t) => t.toLowerCase() === typeText.toLowerCase());
    if (!pingType) fail(`Invalid pingType '${typeText}': expected one of ${PING_TYPES.join(', ')}.`);
    const node = q.str('node') ? requireNode(ctx.system, q.str('node')) : managementNode(ctx.system);
    if (node.state !== 'Running') fail(`Node '${node.name}' is down.`);
    const names = q.strs('nics') ?? [];
    const nics = names.length > 0 ? names.map((n) => node.nics.find((x) => x.name === n) ?? fail(`NIC '${n}' does not exist on node '${node.name}'.`)) : node.nics.filter((n) => n.ips.length > 0);
    const reachable = isIp && (ctx.system.subnets.some((s) => inSubnet(address, s)) || fleetAddresses(ctx).has(address));
    const pings: Ping[] = nics.map((nic) => {
      let error = '';
      if (nic.status !== 'OK') error = `connect: Network is unreachable (${nic.name} is down)`;
      else if (!isIp) error = `ping: ${address}: Name or service not known`;
      else if (!reachable) error = `From ${nic.ips[0]?.ip ?? node.name} icmp_seq=1 Destination Host Unreachable (100% packet loss)`;
      return { PingType: pingType, Address: address, Error: error, Nics: [nic.name], IsSuccessful: error === '' };
    });
    return { Data: [{ ...nodeSummary(ctx.system, node, ctx.nowMs), Pings: pings }] };
  },
};
