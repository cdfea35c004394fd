import type {
  AnomalyDetectionSettings,
  Application,
  FloatingIp,
  Host,
  HostMapping,
  NasServer,
  Node,
  NotificationSettings,
  User,
  Volume,
} from '../catalog/resources.js';
import { memberName, SECURE_SOCKET_OPTIONS, TARGET_TYPE_NAMES } from '../catalog/values.js';
import { LEVEL_NAMES } from '../health/notification-level.js';
import { pairLevel } from '../health/states.js';
import type { Cell, ReportSection } from './model.js';
import { answer, dataList, type ReportInput, type SystemSnapshot } from './snapshot.js';
import { SITE_SYSTEM, arr, bool, dataAgesFor, list, makeTable, num, text, where } from './table.js';

const OPS = [
  'GET /applications/list',
  'GET /hosts/list',
  'GET /hosts/mappings/list',
  'GET /replication/list',
  'GET /nas_servers/list',
  'GET /floatingips/list',
  'GET /notifications/settings/show',
  'GET /users/list',
  'GET /nodes/list',
  'GET /nodes/support/tunnel/status',
  'GET /settings/anomaly_detection/show',
] as const;

/** How a secret is shown: whether it is set, never what it is. */
export type SecretState = 'set' | 'not set' | 'not reported';

/**
 * Whether a secret-bearing field holds a value. Cached answers are redacted, so a present secret
 * reads `[redacted]`: any non-empty string counts as set. Absent means the system did not say
 * (the interface makes most secrets write-only).
 */
export function secretState(value: unknown): SecretState {
  if (value === undefined || value === null) return 'not reported';
  if (Array.isArray(value)) return value.length ? 'set' : 'not set';
  return typeof value === 'string' && value !== '' ? 'set' : 'not set';
}

/** On/off for a boolean flag; null when the system did not say. */
function onOff(v: unknown): string | null {
  return typeof v === 'boolean' ? (v ? 'on' : 'off') : null;
}

/**
 * Configuration snapshot: applications, volumes (with encryption on/off), snapshot schedules,
 * hosts with WWNs/IQNs/NQNs, mappings and LUNs, replication and its state, NAS servers, floating
 * IPs, notification targets and e-mail settings, users with roles and two-factor state, node
 * security (CHAP, iSNS, SED: set or not set only) and support tunnel state.
 * Secrets are never shown, only whether they are set.
 */
export function configSection(input: ReportInput): ReportSection {
  const t = {
    applications: [] as Cell[][],
    volumes: [] as Cell[][],
    schedules: [] as Cell[][],
    hosts: [] as Cell[][],
    mappings: [] as Cell[][],
    replication: [] as Cell[][],
    nas: [] as Cell[][],
    fips: [] as Cell[][],
    targets: [] as Cell[][],
    email: [] as Cell[][],
    users: [] as Cell[][],
    nodes: [] as Cell[][],
    settings: [] as Cell[][],
  };
  for (const s of input.systems) {
    const apps = dataList<Application>(s, 'GET /applications/list');
    for (const a of apps) {
      const vols = arr(a.Volumes);
      t.applications.push([...where(s), text(a.Application), text(a.Template), text(a.Description), vols.length, arr(a.ConsistencyGroups).length]);
      for (const v of vols) t.volumes.push(volumeRow(s, a, v));
      for (const cg of arr(a.ConsistencyGroups)) {
        t.schedules.push([...where(s), text(a.Application), num(cg.Id), list(cg.SnapshotScheduler), list(arr(cg.Volumes).map((v) => v.Volume)), arr(cg.Snapshots).length]);
      }
    }
    for (const h of dataList<Host>(s, 'GET /hosts/list')) {
      t.hosts.push([
        ...where(s),
        text(h.Name),
        text(h.Ip),
        list(h.Wwns),
        text(h.Iqn),
        text(h.Nqn),
        secretState(h.ChapSecret),
        list(arr(h.Pairs).map((p) => `${p.RemoteSystem ?? '?'}/${p.RemoteHost ?? '?'}`)),
      ]);
    }
    t.mappings.push(...mappingRows(s));
    t.replication.push(...replicationRows(s));
    for (const n of dataList<NasServer>(s, 'GET /nas_servers/list')) {
      t.nas.push([...where(s), text(n.Name), text(n.Workgroup), text(n.NisDomain), text(n.NisServer), text(n.DirectoryService), text(n.Username), list(n.FloatingIps)]);
    }
    for (const f of dataList<FloatingIp>(s, 'GET /floatingips/list')) {
      t.fips.push([
        ...where(s),
        text(f.Name),
        text(f.Address),
        text(f.Mask),
        text(f.Gateway),
        text(f.OwnerNode),
        list(f.Nodes),
        list(f.Interfaces),
        bool(f.Dummy),
        list(arr(f.PairedFloatingIps).map((p) => `${p.RemoteSystemName ?? '?'}/${p.Name ?? '?'}`)),
      ]);
    }
    const ns = answer<NotificationSettings>(s, 'GET /notifications/settings/show');
    for (const nt of arr(ns?.NotificationTargets)) {
      t.targets.push([...where(s), text(nt.Name), memberName(TARGET_TYPE_NAMES, nt.Type, 'type') ?? null, memberName(LEVEL_NAMES, nt.MinEventLevel, 'Level') ?? null, bool(nt.IsEnabled), bool(nt.VisibleToCustomers), list(nt.ModulesListenedTo) ?? 'all']);
    }
    const e = ns?.EmailSettings;
    if (e) {
      t.email.push([...where(s), text(e.MailServerAddress), num(e.MailServerPort), text(e.MailServerUsername), text(e.SendingEmailAddress), memberName(SECURE_SOCKET_OPTIONS, e.SecureSocketOption, 'option') ?? null, bool(e.ValidateCertificate)]);
    }
    for (const u of dataList<User>(s, 'GET /users/list')) t.users.push([...where(s), text(u.Name), text(u.Email), text(u.Role), onOff(u.TwoStepAuthenticationEnabled)]);
    const tunnels = new Map(dataList<Node>(s, 'GET /nodes/support/tunnel/status').map((n) => [n.Name, n.SupportTunnelStatus]));
    for (const n of dataList<Node>(s, 'GET /nodes/list')) {
      const chap = n.TargetChap;
      const chapSet: SecretState = chap === undefined ? 'not reported' : secretState(chap.ChapSecret) === 'set' || text(chap.ChapName) ? 'set' : 'not set';
      const isns: SecretState = n.Isns === undefined ? 'not reported' : text(n.Isns.IsnsAddress) ? 'set' : 'not set';
      const sed = typeof n.IsSEDPasswordSupplied === 'boolean' ? (n.IsSEDPasswordSupplied ? 'supplied' : 'not supplied') : null;
      t.nodes.push([...where(s), text(n.Name), chapSet, isns, onOff(n.Isns?.AccessControl), sed, text(tunnels.get(n.Name) ?? n.SupportTunnelStatus)]);
    }
    const ad = answer<AnomalyDetectionSettings>(s, 'GET /settings/anomaly_detection/show');
    if (ad) t.settings.push([...where(s), num(ad.TimeframeDays), num(ad.AbnormalChangePercentage)]);
  }
  return {
    id: 'config',
    kind: 'config',
    title: 'Configuration snapshot',
    description:
      'The configuration each system reported. Secrets (CHAP secrets, iSNS and SED settings, encryption keys, passwords, SNMP phrases) are never shown: ' +
      'only whether they are set. Host CHAP secrets are write-only in the storage interface, so a host shows “not reported” unless its system says.',
    tables: [
      makeTable(
        'config.applications',
        'Applications',
        [...SITE_SYSTEM, ['application', 'Application'], ['template', 'Template'], ['description', 'Description'], ['volumes', 'Volumes', 'number'], ['consistencyGroups', 'Consistency groups', 'number']],
        ['site', 'system', 'application'],
        t.applications,
        'No applications.',
      ),
      makeTable(
        'config.volumes',
        'Volumes',
        [
          ...SITE_SYSTEM,
          ['application', 'Application'],
          ['volume', 'Volume'],
          ['capacity', 'Capacity', 'bytes'],
          ['pool', 'Pool'],
          ['metadataPool', 'Metadata pool'],
          ['protection', 'Protection (N+K)'],
          ['state', 'State'],
          ['encryption', 'Encryption'],
          ['readOnly', 'Read-only', 'bool'],
          ['consistencyGroup', 'Consistency group', 'number'],
          ['naa', 'NAA'],
        ],
        ['site', 'system', 'application', 'volume'],
        t.volumes,
        'No volumes.',
      ),
      makeTable(
        'config.schedules',
        'Snapshot schedules',
        [...SITE_SYSTEM, ['application', 'Application'], ['consistencyGroup', 'Consistency group', 'number'], ['schedules', 'Schedules'], ['volumes', 'Volumes'], ['snapshots', 'Snapshots', 'number']],
        ['site', 'system', 'application', 'consistencyGroup'],
        t.schedules,
        'No consistency groups.',
      ),
      makeTable(
        'config.hosts',
        'Hosts',
        [...SITE_SYSTEM, ['host', 'Host'], ['ip', 'IP'], ['wwns', 'WWNs'], ['iqn', 'IQN'], ['nqn', 'NQN'], ['chap', 'CHAP'], ['pairs', 'Paired with']],
        ['site', 'system', 'host'],
        t.hosts,
        'No hosts.',
      ),
      makeTable(
        'config.mappings',
        'Mappings and LUNs',
        [...SITE_SYSTEM, ['host', 'Host'], ['application', 'Application'], ['volume', 'Volume'], ['lun', 'LUN']],
        ['site', 'system', 'host', 'application', 'volume'],
        t.mappings,
        'No mappings.',
      ),
      makeTable(
        'config.replication',
        'Replication',
        [
          ...SITE_SYSTEM,
          ['application', 'Application'],
          ['volume', 'Volume'],
          ['role', 'Role'],
          ['localData', 'Local data'],
          ['remoteSystem', 'Remote system'],
          ['remoteApplication', 'Remote application'],
          ['remoteVolume', 'Remote volume'],
          ['protocol', 'Protocol'],
          ['connection', 'Connection'],
          ['remoteData', 'Remote data'],
          ['sync', 'Synchronized', 'percent'],
          ['level', 'Level'],
        ],
        ['site', 'system', 'application', 'volume', 'remoteSystem'],
        t.replication,
        'No replicated volumes.',
      ),
      makeTable(
        'config.nasServers',
        'NAS servers',
        [...SITE_SYSTEM, ['name', 'Name'], ['workgroup', 'Workgroup'], ['nisDomain', 'NIS domain'], ['nisServer', 'NIS server'], ['directory', 'Directory domain'], ['directoryUser', 'Directory user'], ['floatingIps', 'Floating IPs']],
        ['site', 'system', 'name'],
        t.nas,
        'No NAS servers.',
      ),
      makeTable(
        'config.floatingIps',
        'Floating IPs',
        [
          ...SITE_SYSTEM,
          ['name', 'Name'],
          ['address', 'Address'],
          ['mask', 'Mask'],
          ['gateway', 'Gateway'],
          ['owner', 'Owner node'],
          ['nodes', 'Nodes'],
          ['interfaces', 'Interfaces'],
          ['dummy', 'Dummy', 'bool'],
          ['paired', 'Paired with'],
        ],
        ['site', 'system', 'name'],
        t.fips,
        'No floating IPs.',
      ),
      makeTable(
        'config.notificationTargets',
        'Notification targets',
        [...SITE_SYSTEM, ['name', 'Name'], ['type', 'Type'], ['minLevel', 'Minimum level'], ['enabled', 'Enabled', 'bool'], ['visible', 'Visible to customers', 'bool'], ['modules', 'Modules']],
        ['site', 'system', 'name'],
        t.targets,
        'No notification targets.',
      ),
      makeTable(
        'config.email',
        'E-mail settings',
        [...SITE_SYSTEM, ['server', 'Mail server'], ['port', 'Port', 'number'], ['username', 'User name'], ['sender', 'Sender'], ['secureSocket', 'Secure socket option'], ['validateCertificate', 'Validate certificate', 'bool']],
        ['site', 'system'],
        t.email,
        'No e-mail settings cached.',
      ),
      makeTable(
        'config.users',
        'Users',
        [...SITE_SYSTEM, ['user', 'User'], ['email', 'E-mail'], ['role', 'Role'], ['twoFactor', 'Two-factor authentication']],
        ['site', 'system', 'user'],
        t.users,
        'No users cached.',
      ),
      makeTable(
        'config.nodeSecurity',
        'Node security and support access',
        [...SITE_SYSTEM, ['node', 'Node'], ['targetChap', 'Target CHAP'], ['isns', 'iSNS'], ['isnsAccessControl', 'iSNS access control'], ['sed', 'SED password'], ['supportTunnel', 'Support tunnel']],
        ['site', 'system', 'node'],
        t.nodes,
        'No node list cached.',
      ),
      makeTable(
        'config.anomalyDetection',
        'Anomaly detection',
        [...SITE_SYSTEM, ['timeframeDays', 'Time frame (days)', 'number'], ['changePercent', 'Abnormal change', 'percent']],
        ['site', 'system'],
        t.settings,
        'No anomaly detection settings cached.',
      ),
    ],
    dataAges: dataAgesFor(input, OPS),
  };
}

function volumeRow(s: SystemSnapshot, a: Application, v: Volume): Cell[] {
  const n = num(v.N);
  const k = num(v.K);
  return [
    ...where(s),
    text(v.Application) ?? text(a.Application),
    text(v.Volume),
    num(v.CapacityInBytes),
    text(v.Pool),
    text(v.MetadataPool),
    n !== null && k !== null ? `${n}+${k}` : null,
    text(v.State),
    onOff(v.Encrypted),
    bool(v.ReadOnly),
    num(v.Cgid),
    text(v.Naa),
  ];
}

/** One row per (host, application, volume) with its LUN; from the mapping list, else from hosts. */
function mappingRows(s: SystemSnapshot): Cell[][] {
  const rows: Cell[][] = [];
  const mappings = dataList<HostMapping>(s, 'GET /hosts/mappings/list');
  if (mappings.length) {
    for (const m of mappings) {
      const vols = arr(m.Volumes);
      const luns = arr(m.LunIds);
      vols.forEach((v, i) => {
        const lun = luns[i];
        rows.push([...where(s), text(m.Host), text(m.Application), text(v), lun !== undefined && /^\d+$/.test(lun) ? Number(lun) : text(lun)]);
      });
    }
  } else {
    for (const h of dataList<Host>(s, 'GET /hosts/list')) {
      for (const m of arr(h.Mappings)) rows.push([...where(s), text(h.Name), text(m.Application), text(m.Volume), num(m.LunId)]);
    }
  }
  return rows.sort((a, b) => String(a[2]).localeCompare(String(b[2])) || String(a[3]).localeCompare(String(b[3])) || String(a[4]).localeCompare(String(b[4])));
}

/** Replicated volumes: one row per replication pair. */
function replicationRows(s: SystemSnapshot): Cell[][] {
  const rows: Cell[][] = [];
  for (const a of dataList<Application>(s, 'GET /replication/list')) {
    for (const v of arr(a.Volumes)) {
      const r = v.Replication;
      for (const p of arr(r?.ReplicationPairs)) {
        rows.push([
          ...where(s),
          text(v.Application) ?? text(a.Application),
          text(v.Volume),
          text(r?.Role),
          text(r?.LocalDataStatus),
          text(p.RemoteSystemName),
          text(p.RemoteAppName),
          text(p.RemoteVolName),
          text(p.ReplicationProtocol),
          text(p.ConnectionStatus),
          text(p.RemoteDataStatus),
          num(p.SyncInPercentage),
          pairLevel(p),
        ]);
      }
    }
  }
  return rows;
}
