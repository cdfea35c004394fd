import { createHmac } from 'node:crypto';
import { ApiFailure } from '../errors.js';
import { hashString, Rng } from '../random.js';
import { APP_NAMES, CUSTOMERS, DRIVE_MODELS, HOST_NAMES, SITE_CITIES, SYSTEM_WORDS, VERSION_TRAINS } from './catalogs.js';
import { addUnapprovedDrive, chooseProfile, generateNode, makeDegrading } from './hardware.js';
import type { NodeContext } from './hardware.js';
import type {
  DriveType, FleetState, HostState, NodeState, PoolState, Role, SiteState, SystemState, TemplateState, TemplateVolumeState, UserState,
} from './model.js';
import { LEVEL, notify } from './notifications.js';
import { createApplication } from './provision.js';
import { startReplication } from './replication.js';
import { degradingMessage } from './smart.js';

export interface GenerateOptions {
  /** Any text; equal seeds give equal fleets. */
  readonly seed: string;
  readonly sites: number;
  readonly systems: number;
  /** Demo fleet: exactly one degrading drive and one replication pair. */
  readonly demo: boolean;
  readonly username: string;
  readonly password: string;
  /** Simulated time of generation; all seeded timestamps are relative to it. */
  readonly nowMs: number;
}

const GiB = 2 ** 30;
const TiB = 2 ** 40;
const HOUR = 3_600_000;

/** TOTP key of a user: HMAC of the seed, so it is stable across runs and never stored on disk. */
export function deriveTotpSecret(seed: string, siteIndex: number, user: string): Buffer {
  return createHmac('sha1', `fleetdeck-sim/${seed}`).update(`totp/${siteIndex}/${user.toLowerCase()}`).digest();
}

function poolLayout(count: number): { n: number; k: number } {
  if (count >= 10) return { n: 8, k: 2 };
  if (count >= 6) return { n: 4, k: 2 };
  return { n: 2, k: 1 };
}

function templateVolume(
  id: number,
  name: string,
  capacityBytes: number,
  pool: PoolState,
  metadataPool: PoolState,
  cgid: number | undefined,
): TemplateVolumeState {
  return {
    id,
    name,
    capacityBytes,
    snapshotCapacityBytes: Math.floor(capacityBytes / 10),
    pool: pool.name,
    metadataPool: metadataPool.name,
    stripedPools: [],
    stripedMetadataPools: [],
    n: pool.n,
    k: pool.k,
    metadataN: 2,
    metadataK: 2,
    sectorSize: pool.type === 'HDD' ? '4K' : '512',
    log2Stride: 8,
    cgid,
    groupedVolume: '',
    tiers: undefined,
  };
}

function seedTemplates(system: SystemState): TemplateState[] {
  const pool = (t: DriveType): PoolState => system.pools.find((p) => p.type === t) as PoolState;
  const meta = pool('NVMe');
  const tid = (): number => ++system.counters.template;
  return [
    {
      name: 'Database',
      description: 'OLTP database: data and log in one consistency group, plus a backup volume',
      volumes: [
        templateVolume(tid(), 'data', 2 * TiB, pool('SSD'), meta, 1),
        templateVolume(tid(), 'log', 256 * GiB, pool('NVMe'), meta, 1),
        templateVolume(tid(), 'backup', 4 * TiB, pool('HDD'), meta, undefined),
      ],
      cgs: [{ id: 1, frequency: ['hourly'], retention: ['24'], vss: true }],
    },
    {
      name: 'FileShare',
      description: 'Departmental file share served by a NAS server',
      volumes: [templateVolume(tid(), 'share', 8 * TiB, pool('HDD'), meta, undefined)],
      cgs: [],
    },
    {
      name: 'VirtualDesktops',
      description: 'Two datastores for virtual desktops, snapshotted together',
      volumes: [
        templateVolume(tid(), 'vdi-ds1', 1 * TiB, pool('NVMe'), meta, 1),
        templateVolume(tid(), 'vdi-ds2', 1 * TiB, pool('NVMe'), meta, 1),
      ],
      cgs: [{ id: 1, frequency: ['daily'], retention: ['7'], vss: false }],
    },
    {
      name: 'Analytics',
      description: 'Fast scratch space and a large results volume',
      volumes: [
        templateVolume(tid(), 'scratch', 1 * TiB, pool('NVMe'), meta, undefined),
        templateVolume(tid(), 'results', 6 * TiB, pool('HDD'), meta, undefined),
      ],
      cgs: [],
    },
  ];
}

function wwn(rng: Rng, prefix: string): string {
  return `${prefix}:${rng.hex(2)}:${rng.hex(2)}:${rng.hex(2)}`;
}

function seedHost(rng: Rng, name: string, fc: boolean, s: number, y: number, index: number): HostState {
  const kinds = fc ? ['FC', 'FC', 'iSCSI', 'NVMe'] : ['iSCSI', 'iSCSI', 'NVMe'];
  const kind = name.startsWith('k8s') ? 'NVMe' : rng.pick(kinds);
  const host: HostState = { name, ip: `10.${100 + s}.${y}.${100 + index}`, wwns: [], iqn: '', nqn: '', chapSecret: undefined, pairs: [] };
  if (kind === 'FC') host.wwns = [wwn(rng, '10:00:00:10:9b'), wwn(rng, '10:00:00:10:9b')];
  else if (kind === 'iSCSI') {
    host.iqn = name.startsWith('esx')
      ? `iqn.1998-01.com.vmware:${name}-${rng.hex(8)}`
      : name.startsWith('sql') || name.startsWith('hyperv')
        ? `iqn.1991-05.com.microsoft:${name}.corp.example.com`
        : `iqn.1994-05.com.redhat:${rng.hex(12)}`;
  } else host.nqn = `nqn.2014-08.org.nvmexpress:uuid:${rng.hex(8)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(12)}`;
  return host;
}

const HISTORY: ReadonlyArray<{ level: number; module: string; message: (node: string) => string }> = [
  { level: LEVEL.info, module: 'Authentication', message: () => "User 'admin' logged in." },
  { level: LEVEL.info, module: 'Management', message: () => 'Configuration backup completed.' },
  { level: LEVEL.info, module: 'Applications', message: () => 'Scheduled snapshot of consistency group 1 completed.' },
  { level: LEVEL.warning, module: 'Hardware', message: (n) => `Fan FAN2 on node ${n} below nominal speed.` },
  { level: LEVEL.info, module: 'Hardware', message: (n) => `Fan FAN2 on node ${n} back to nominal speed.` },
  { level: LEVEL.warning, module: 'Network', message: (n) => `Link eth3 on node ${n} flapped (down 4 s).` },
  { level: LEVEL.info, module: 'Monitoring', message: () => 'Daily capacity report generated.' },
  { level: LEVEL.error, module: 'HA', message: (n) => `Heartbeat from node ${n} delayed by 2.3 s.` },
  { level: LEVEL.debug, module: 'Management', message: () => 'Cache refresh finished.' },
  { level: LEVEL.warning, module: 'Monitoring', message: () => 'Pool hdd-pool latency above 20 ms for 5 minutes.' },
];

function seedHistory(rng: Rng, system: SystemState, customer: string, nowMs: number): void {
  const count = rng.int(30, 60);
  const times = Array.from({ length: count }, () => nowMs - rng.int(HOUR, 7 * 24 * HOUR)).sort((a, b) => a - b);
  for (const t of times) {
    const h = rng.pick(HISTORY);
    const node = rng.pick(system.nodes).name;
    notify(system, customer, t, { level: h.level, module: h.module, message: h.message(node), node });
  }
}

interface SystemPlan {
  degrading: boolean;
}

function generateSystem(rng: Rng, o: GenerateOptions, site: SiteState, index: number, globalName: string, plan: SystemPlan, customer: string): SystemState {
  const s = site.index + 1;
  const y = index + 1;
  const profile = chooseProfile(rng);
  const system: SystemState = {
    id: s * 100 + y,
    name: globalName,
    serial: `FD${rng.alnum(8)}`,
    siteIndex: site.index,
    index,
    subnets: [`10.${s}.${y}.0/24`, `10.${100 + s}.${y}.0/24`, `10.${200 + s}.${y}.0/24`],
    managementNodeId: 0,
    nodes: [],
    pools: [],
    apps: [],
    templates: [],
    hosts: [],
    mappings: [],
    floatingIps: [],
    replicationFloatingIps: [],
    nasServers: [],
    notifications: [],
    targets: [],
    email: {
      server: 'smtp.example.com',
      port: 587,
      username: 'fleetdeck-mailer',
      password: `mail-${rng.hex(12)}`,
      from: `storage-${globalName}@example.com`,
      secureSocketOption: 3,
      validateCertificate: true,
    },
    binaryUnits: true,
    anomaly: { days: 7, percent: 30 },
    chap: { name: '', secret: undefined },
    isns: { address: '', accessControl: false },
    sedPassword: undefined,
    versions: [],
    seriesSeed: hashString(`${o.seed}/series/${globalName}`),
    createdAtMs: o.nowMs,
    counters: { hardware: 0, volume: 0, entity: 1000, cg: 0, snapshot: 0, template: 0, notification: 0 },
  };
  const train = rng.pick(VERSION_TRAINS);
  const build = rng.int(1000, 9999);
  system.versions = [
    { Component: 'Management', Version: train, BuildNumber: `${train}.${build}` },
    { Component: 'StorageEngine', Version: train, BuildNumber: `${train}.${build - 7}` },
    { Component: 'Replication', Version: train, BuildNumber: `${train}.${build - 3}` },
    { Component: 'Firmware', Version: rng.pick(['2.14.1', '2.15.0']), BuildNumber: String(rng.int(20230101, 20251231)) },
  ];

  const nodeCount = rng.chance(0.25) ? 4 : 2;
  const ctx = (nodeIndex: number): NodeContext => ({
    systemName: globalName,
    siteNo: s,
    systemNo: y,
    nodeIndex,
    nowMs: o.nowMs,
    nextId: () => ++system.counters.hardware,
  });
  for (let i = 0; i < nodeCount; i++) system.nodes.push(generateNode(rng, ctx(i), profile));
  system.managementNodeId = (system.nodes[0] as NodeState).id;

  for (const [pi, type] of (['HDD', 'SSD', 'NVMe'] as const).entries()) {
    const members = system.nodes.flatMap((n) => n.drives.filter((d) => d.type === type));
    const pool: PoolState = { id: pi + 1, name: `${type.toLowerCase()}-pool`, type, ...poolLayout(members.length) };
    for (const d of members) d.pool = pool.name;
    system.pools.push(pool);
  }
  // New drives waiting for approval, in the spare slots.
  for (let i = rng.int(1, 2); i > 0; i--) {
    const node = rng.pick(system.nodes);
    addUnapprovedDrive(rng, ctx(system.nodes.indexOf(node)), node, rng.pick(DRIVE_MODELS.filter((m) => m.type !== 'NVMe')));
  }
  if (plan.degrading) {
    const node = rng.pick(system.nodes);
    const candidates = node.drives.filter((d) => d.approved === 'Approved' && d.type !== 'SSD');
    const drive = rng.pick(candidates);
    makeDegrading(rng, drive);
    drive.errMsg = degradingMessage(drive, o.nowMs);
  }
  if (rng.chance(0.25)) {
    // A drive pulled from a slot: reported Missing until resources/delete removes it.
    const node = rng.pick(system.nodes);
    const drive = addUnapprovedDrive(rng, ctx(system.nodes.indexOf(node)), node, profile.drives.HDD);
    drive.approved = 'Approved';
    drive.status = 'Missing';
    drive.errMsg = 'Drive not detected since the last scan.';
  }

  system.templates = seedTemplates(system);
  const names = rng.shuffle(APP_NAMES);
  const order = ['Database', 'FileShare', ...Array.from({ length: rng.int(1, 3) }, () => rng.pick(['Database', 'VirtualDesktops', 'Analytics']))];
  for (const [i, tname] of order.entries()) {
    const template = system.templates.find((t) => t.name === tname);
    try {
      const app = createApplication(system, names[i] as string, template, '', o.nowMs - rng.int(30, 400) * 24 * HOUR);
      for (const v of app.volumes) {
        v.consumed = Math.round(rng.next() * 70 + 15) / 100;
        v.createdAtMs = o.nowMs - rng.int(30, 400) * 24 * HOUR;
      }
      for (const cg of app.cgs) {
        for (let k = 0; k < 3; k++) {
          cg.snapshots.push({ id: ++system.counters.snapshot, dateMs: o.nowMs - (k + 1) * (cg.schedulers.includes('daily') ? 24 : 1) * HOUR, owner: 'Scheduler' });
        }
      }
      if (tname === 'Database') {
        // Database groups are encrypted at rest; the key is a secret that never leaves the state.
        for (const v of app.volumes) {
          if (v.cgid === undefined) continue;
          v.encrypted = true;
          v.encryptionKey = rng.hex(64);
        }
      }
      if (tname === 'VirtualDesktops') {
        for (const v of app.volumes) for (let k = 1; k <= 3; k++) app.vms.push({ Name: `${app.name}-vm${String(app.vms.length + 1).padStart(2, '0')}`, VolumeName: v.name });
      }
    } catch (e) {
      if (!(e instanceof ApiFailure)) throw e;
    }
  }

  const hostNames = rng.shuffle(HOST_NAMES).slice(0, rng.int(4, 7));
  system.hosts = hostNames.map((h, i) => seedHost(rng, h, profile.fc, s, y, i));
  const luns = new Map<string, number>();
  for (const app of system.apps) {
    if (app.template === 'FileShare') continue;
    for (const host of rng.shuffle(system.hosts).slice(0, rng.int(1, 2))) {
      for (const vol of app.volumes) {
        const lun = luns.get(host.name) ?? 0;
        luns.set(host.name, lun + 1);
        system.mappings.push({ volumeId: vol.id, host: host.name, lun });
      }
    }
  }
  for (const app of system.apps) {
    for (const vol of app.volumes) {
      if (app.template === 'FileShare' || (app.template === 'Analytics' && vol.name === 'results')) {
        const mounted = app.template === 'FileShare';
        vol.fs = {
          profile: mounted ? 'Journal' : 'Ordered',
          mounted,
          replicationMetadata: false,
          snap: mounted,
          createdAtMs: vol.createdAtMs,
          lastMountAtMs: mounted ? o.nowMs - rng.int(1, 30) * 24 * HOUR : 0,
          mountCount: mounted ? rng.int(2, 20) : 0,
        };
      }
    }
  }

  const allNodeIds = system.nodes.map((n) => n.id);
  system.floatingIps.push(
    { name: 'mgmt-vip', address: `10.${s}.${y}.10`, mask: '255.255.255.0', gateway: `10.${s}.${y}.1`, dummy: false, nodeIds: allNodeIds, interfaces: ['eth0'], pairs: [] },
    { name: 'nas-fip', address: `10.${100 + s}.${y}.200`, mask: '255.255.255.0', gateway: `10.${100 + s}.${y}.1`, dummy: false, nodeIds: allNodeIds, interfaces: ['eth2'], pairs: [] },
  );
  system.replicationFloatingIps.push({
    name: 'repl-vip',
    addresses: system.nodes.map((_, i) => `10.${200 + s}.${y}.${50 + i}`),
    mask: '255.255.255.0',
    gateway: `10.${200 + s}.${y}.1`,
    nodeIds: allNodeIds,
    interfaces: ['eth4'],
  });
  if (system.apps.some((a) => a.template === 'FileShare')) {
    const joined = rng.chance(0.5);
    system.nasServers.push({
      name: `${globalName.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 10)}-NAS`,
      floatingIps: ['nas-fip'],
      nisDomain: '',
      nisServer: '',
      workgroup: joined ? '' : 'WORKGROUP',
      directoryService: joined ? 'corp.example.com' : '',
      username: joined ? 'svc-nas' : '',
      password: joined ? `nas-${rng.hex(12)}` : undefined,
    });
  }

  system.targets.push(
    {
      name: 'ops-email', kind: 'email', minLevel: LEVEL.warning, modules: [], visible: true, enabled: true, batchLimit: 50, batchPeriod: 60,
      settings: { Email: 'storage-ops@example.com' }, secrets: {},
    },
    {
      name: 'central-syslog', kind: 'syslog', minLevel: LEVEL.info, modules: [], visible: true, enabled: rng.chance(0.7), batchLimit: 100, batchPeriod: 10,
      settings: { ServerAddress: `10.${s}.0.20`, ServerPort: 514, ConnectionType: 'Udp', SslProtocol: '' }, secrets: {},
    },
  );

  seedHistory(rng, system, customer, o.nowMs);
  for (const { node, drive } of system.nodes.flatMap((n) => n.drives.map((d) => ({ node: n, drive: d })))) {
    if (drive.status === 'Warning') notify(system, customer, o.nowMs - 2 * HOUR, { level: LEVEL.warning, module: 'Hardware', message: `Drive ${drive.name} (${drive.serial}) on node ${node.name}: ${drive.errMsg}`, node: node.name });
    if (drive.status === 'Missing') notify(system, customer, o.nowMs - 26 * HOUR, { level: LEVEL.error, module: 'Hardware', message: `Drive in slot ${drive.slot} of node ${node.name} is missing.`, node: node.name });
  }
  return system;
}

function user(o: GenerateOptions, site: number, name: string, role: Role, password: string): UserState {
  return { name, password, email: `${name}@example.com`, role, totpSecret: deriveTotpSecret(o.seed, site, name) };
}

/** Generates the whole fleet from the seed: equal options give equal state, field for field. */
export function generateFleet(o: GenerateOptions): FleetState {
  const root = new Rng(hashString(o.seed));
  const cities = root.shuffle(SITE_CITIES);
  const words = root.shuffle(SYSTEM_WORDS);
  const sites: SiteState[] = [];
  let globalIndex = 0;
  for (let si = 0; si < o.sites; si++) {
    const rng = root.fork(`site-${si}`);
    const city = cities[si % cities.length] as string;
    const customer = CUSTOMERS[si % CUSTOMERS.length] as string;
    const site: SiteState = {
      index: si,
      name: `dc-${city}${si >= cities.length ? `-${Math.floor(si / cities.length) + 1}` : ''}`,
      systems: [],
      users: [
        user(o, si, o.username, 'Administrator', o.password),
        user(o, si, 'operator', 'Operator', o.password),
        user(o, si, 'auditor', 'Viewer', o.password),
      ].filter((u, i, all) => all.findIndex((x) => x.name.toLowerCase() === u.name.toLowerCase()) === i),
      customer,
      lastTickMs: o.nowMs,
      sessions: new Map(),
      multifactor: false,
      links: [],
      nextLinkId: 1,
    };
    for (let y = 0; y < o.systems; y++) {
      const word = words[globalIndex % words.length] as string;
      const name = `${word}-${String(Math.floor(globalIndex / words.length) + 1).padStart(2, '0')}`;
      globalIndex++;
      const degrading = o.demo ? si === 0 && y === Math.min(1, o.systems - 1) : (si === 0 && y === 0) || rng.chance(0.3);
      site.systems.push(generateSystem(rng.fork(`system-${y}`), o, site, y, name, { degrading }, customer));
    }
    seedCrossSystem(rng, o, site, customer, o.demo ? si === 0 : true);
    for (const system of site.systems) renumberHistory(system);
    sites.push(site);
  }
  return { seed: o.seed, sites, dialects: new Set() };
}

/** Seeded records were written out of time order; sort them and number Ids in time order. */
function renumberHistory(system: SystemState): void {
  system.notifications.sort((x, y) => (x.Timestamp ?? '').localeCompare(y.Timestamp ?? ''));
  system.notifications.forEach((r, i) => (r.Id = i + 1));
  system.counters.notification = system.notifications.length;
}

/** Host pairs, floating IP pairs and one replication pair already in sync, between a site's first two systems. */
function seedCrossSystem(rng: Rng, o: GenerateOptions, site: SiteState, customer: string, withReplication: boolean): void {
  const [a, b] = site.systems;
  if (!a || !b) return;
  const ha = a.hosts[0];
  const hb = b.hosts[0];
  if (ha && hb) {
    ha.pairs.push({ systemId: b.id, host: hb.name });
    hb.pairs.push({ systemId: a.id, host: ha.name });
  }
  const fa = a.floatingIps.find((f) => f.name === 'nas-fip');
  const fb = b.floatingIps.find((f) => f.name === 'nas-fip');
  if (fa && fb) {
    fa.pairs.push({ systemId: b.id, name: fb.name });
    fb.pairs.push({ systemId: a.id, name: fa.name });
  }
  if (!withReplication) return;
  const app = a.apps.find((x) => x.template === 'Database') ?? a.apps[0];
  const vol = app?.volumes[0];
  if (!app || !vol) return;
  try {
    const link = startReplication(site, {
      source: a, app, vol, target: b, targetApplication: `${app.name}-dr`, targetVolume: vol.name, mode: rng.pick(['Synchronous', 'Asynchronous'] as const), nowMs: o.nowMs,
    });
    link.syncStartMs = o.nowMs - 3 * 24 * HOUR;
    link.announcedInSync = true;
    for (const sys of [a, b]) notify(sys, customer, o.nowMs - 3 * 24 * HOUR + 2 * HOUR, { level: LEVEL.info, module: 'Replication', message: `Replication ${link.id} of ${a.name}/${app.name}/${vol.name} to ${b.name} is in sync.` });
  } catch (e) {
    if (!(e instanceof ApiFailure)) throw e;
  }
}
