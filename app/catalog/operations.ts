import { InputError } from '../errors.js';
import { fields } from './fields.js';
import type { Field, Group, HttpMethod, Operation, ResponseSpec } from './types.js';

/**
 * The operation catalog: every operation of the storage management service interface
 * (docs/interface.md, section 4 and the configurations index entry), as data.
 * It is the single source for the client, the simulator, the operation console and the CLI.
 */

const STRING: ResponseSpec = { kind: 'string' };
const EMPTY: ResponseSpec = { kind: 'empty' };
const list = (item: string): ResponseSpec => ({ kind: 'list', item });
const object = (type: string): ResponseSpec => ({ kind: 'object', type });

/** The C pair: optional on every operation that is not a pure read. */
const C: readonly Field[] = fields('async B, uncommitAndAggregateId S');

interface OpSpec {
  /** Query parameters in the field notation of `fields()`. */
  q?: string;
  /** Adds the C pair. */
  c?: boolean;
  /** Body fields; omitted means no body. */
  body?: string;
  /** Header parameters. */
  h?: string;
  res?: ResponseSpec;
  writes?: boolean;
  destructive?: boolean;
  authenticated?: boolean;
  freeformQuery?: boolean;
  inferred?: boolean;
  /** Secrets in the response (dotted paths). */
  responseSecrets?: readonly string[];
}

function groupOf(path: string): Group {
  const first = path.split('/')[1]?.toLowerCase() ?? '';
  if (first === 'resetpassword') return 'login';
  return first as Group;
}

function secretPaths(list: readonly Field[], prefix = ''): string[] {
  const out: string[] = [];
  for (const f of list) {
    const name = prefix + f.name;
    if (f.secret) out.push(name);
    let t = f.type;
    while (typeof t !== 'string' && 'array' in t) t = t.array;
    if (typeof t !== 'string' && 'object' in t) out.push(...secretPaths(t.fields, `${name}.`));
  }
  return out;
}

function op(method: HttpMethod, path: string, summary: string, spec: OpSpec = {}): Operation {
  const query = [...fields(spec.q ?? ''), ...(spec.c ? C : [])];
  const headers = fields(spec.h ?? '');
  const body = fields(spec.body ?? '');
  return {
    key: `${method} ${path}`,
    method,
    path,
    group: groupOf(path),
    summary,
    query,
    headers,
    body,
    hasBody: spec.body !== undefined,
    response: spec.res ?? STRING,
    writes: spec.writes ?? method !== 'GET',
    destructive: spec.destructive ?? method === 'DELETE',
    secrets: [...secretPaths([...query, ...headers, ...body]), ...(spec.responseSecrets ?? [])],
    authenticated: spec.authenticated ?? true,
    freeformQuery: spec.freeformQuery ?? false,
    inferred: spec.inferred ?? false,
  };
}

const HOST_BODY = 'Name S, Ip S, Wwns [S], Iqn S, ChapSecret S!, Nqn S';
const MAPPING_BODY = 'Application S, Hosts [S], Volumes [S], LunIds [S]';
const FLOATING_IP_BODY = 'Name S, Dummy B, Address S, Mask S, Gateway S, Nodes [S], Interfaces [S]';
const NAS_BODY =
  'Name S, FloatingIps [S], NisDomain S, NisServer S, Workgroup S, DirectoryService S, Username S, Password S!, OverwriteExistingServer B';
const TEMPLATE_VOLUME_FIELDS =
  'Volume S, CapacityInBytes I, Pool S, N I, K I, MetadataPool S, MetadataN I, MetadataK I, SectorSize S, StripedPools [S], ' +
  'StripedMetadataPools [S], SnapshotCapacityInBytes I, GroupedVolume S, Cgid I, Tiers Tiers';
const BATCH = 'MinLevel S, Modules [S], BatchPostingLimit I, BatchPostingPeriod I';
const EDIT_SWITCHES = 'NewName S, Disable B, Enable B';

export const OPERATIONS: readonly Operation[] = [
  // 4.1 Applications
  op('POST', '/applications/create', 'Create an application instance, optionally from a template', {
    c: true,
    body: 'Application S, Template S, Description S',
  }),
  op('DELETE', '/applications/delete', 'Delete an application instance', { q: 'application S, force B', c: true }),
  op('PUT', '/applications/edit', 'Rename an application or change its description', {
    q: 'application S',
    c: true,
    body: 'Application S, Description S',
  }),
  op('GET', '/applications/list', 'List applications with their volumes and consistency groups', {
    q: 'application S, desc B, cg B, vols B',
    res: list('Application'),
  }),
  op('GET', '/applications/encryption/encryption_key_example', 'Show an example encryption key'),
  op('PUT', '/applications/encryption/supply_encryption_key', 'Supply the encryption key that opens an encrypted group', {
    c: true,
    body: 'Cgid I, Application S, Volume S, EncryptionKey S!',
  }),
  op('POST', '/applications/filesystems/add', 'Create file systems on application volumes', {
    c: true,
    body: 'Application S, Volumes [S], Profile S, AddReplicationMetadata B, EnableSnapX B, Force B',
  }),
  op('PUT', '/applications/filesystems/edit', 'Edit a file system', {
    q: 'application S, volume S',
    c: true,
    body: 'AddReplicationMetadata B, EnableSnapX B, Force B',
  }),
  op('GET', '/applications/filesystems/list', 'List file systems of application volumes', {
    q: 'application S, volume S',
    res: list('Application'),
  }),
  op('PUT', '/applications/filesystems/mount', 'Mount unmounted file systems', { c: true, body: 'Application S, Volume S' }),
  op('POST', '/applications/mappings/add', 'Map application volumes to hosts with LUN ids', { c: true, body: MAPPING_BODY }),
  // Parameters not shown by the document; deletes send selectors as query parameters, so we mirror the add body.
  op('DELETE', '/applications/mappings/delete', 'Delete mappings of application volumes', {
    q: 'application S, hosts [S], volumes [S]',
    c: true,
    inferred: true,
  }),

  // 4.2 Nodes
  op('PUT', '/nodes/chap', 'Set the iSCSI target CHAP credentials', { c: true, body: 'ChapName S, ChapSecret S!, Force B' }),
  op('PUT', '/nodes/connect', 'Connect the management session to a node', { c: true, body: 'Node S' }),
  op('PUT', '/nodes/edit', 'Rename a node', { c: true, body: 'Node S, Newname S' }),
  op('PUT', '/nodes/giveback', 'Give back services after a takeover (changes the HA state)', {
    c: true,
    body: 'Force B',
    destructive: true,
  }),
  op('PUT', '/nodes/isns', 'Set the iSNS server and access control', { c: true, body: 'Address S, AccessControl B, Force B' }),
  op('GET', '/nodes/list', 'List nodes', { q: 'sensors B, gateway B, vols B, ip B, sed B', res: list('Node') }),
  op('GET', '/nodes/sessions', 'List sessions of a node', { q: 'node S', res: list('Node') }),
  op('PUT', '/nodes/takeover', 'Take over the services of a node (changes the HA state)', {
    c: true,
    body: 'Node S, Force B',
    destructive: true,
  }),
  op('GET', '/nodes/utils/run', 'Run a node utility (timeoutSeconds limits the run, default 10)', {
    q: 'node S, utility S, args S, timeoutSeconds I',
    writes: true,
  }),
  op('PUT', '/nodes/support/tunnel/enable', 'Enable the support tunnel of a node', { c: true, body: 'Node S' }),
  op('PUT', '/nodes/support/tunnel/disable', 'Disable the support tunnel of a node', { c: true, body: 'Node S' }),
  op('GET', '/nodes/support/tunnel/status', 'Show the support tunnel status of every node', { res: list('Node') }),

  // 4.3 Resources
  op('DELETE', '/resources/delete', 'Remove hardware resources that are missing', { q: 'entityIds [I], all B', c: true }),
  op('GET', '/resources/list', 'List hardware resources per node', {
    q: 'resourceType S, node S, errors B, details B, sensors B, ids [I]',
    res: list('Node'),
  }),
  op('PUT', '/resources/drives/approve', 'Approve new drives', {
    c: true,
    body: 'DriveIds [I], All B, Patterns [S], Count I, ManualPool S, Force B',
  }),
  op('GET', '/resources/drives/list', 'List drives (first available node when no node is given)', {
    q: 'node S, errors B, details B, ids [I], led B, patterns [S]',
    res: list('Drive'),
  }),
  op('GET', '/resources/drives/performance_analyzer', 'Run the drive performance analyzer', {
    q: 'driveIds [I], all B, ssd B, hdd B, nvme B, manualPools S, iterationTimeInSeconds I',
    res: list('DrivePerformance'),
    writes: true,
  }),
  op('GET', '/resources/drives/smart', 'Show the SMART output of a drive', { q: 'node S, driveid I' }),
  op('PUT', '/resources/drives/sed/supply_password', 'Supply the self-encrypting drive password', {
    c: true,
    body: 'Password S!',
  }),
  op('PUT', '/resources/network/iscsi', 'Enable or disable iSCSI on IP addresses', { q: 'ips [S]', c: true, body: 'Enable B, Force B' }),
  op('GET', '/resources/network/list', 'List network interface cards per node', {
    q: 'errors B, details B, ids [I]',
    res: list('Node'),
  }),
  op('PUT', '/resources/network/nvmeof', 'Enable or disable NVMe over Fabrics on an IP address', {
    q: 'ip S',
    c: true,
    body: 'Port I, Enable B, Rdma B, Tcp B',
  }),
  // Parameters and response not shown; the Node record's Pings field is the natural result.
  op('GET', '/resources/network/ping', 'Ping an address from the network interface cards of a node', {
    q: 'node S, address S, nics [S], pingType S',
    res: list('Node'),
    inferred: true,
  }),

  // 4.4 Replication
  op('PUT', '/replication/edit', 'Change the replication mode of a volume', {
    c: true,
    body: 'Application S, Volume S, TargetSystem S, Synchronous B, Semisynchronous B, Asynchronous B',
  }),
  op('GET', '/replication/list', 'List replicated volumes', {
    q: 'application S, volume S, filterSecondary B, filterPrimary B',
    res: list('Application'),
  }),
  op('PUT', '/replication/primary', 'Promote secondary volumes to active/primary', {
    c: true,
    body: 'Application S, Volume [S], Cgids [I], AllSecondaryVolumes B, DummyFloatingToActivate [S], ActivateAllDummyFloatingIps B, Force B',
    destructive: true,
  }),
  op('GET', '/replication/refresh', 'Refresh replication state (reconnect=true disconnects and reconnects the link)', {
    q: 'application S, volume S, reconnect B',
    writes: true,
  }),
  op('POST', '/replication/start', 'Start replicating a volume to a target system', {
    c: true,
    body:
      'Application S, Volume S, TargetSystem S, TargetApplication S, TargetVolume S, SourceFloatingIp S, TargetFloatingIp S, ' +
      'Synchronous B, Semisynchronous B, Asynchronous B, Force B',
  }),
  op('DELETE', '/replication/stop', 'Stop replicating a volume', {
    q: 'application S, volume S, targetSystem S, allowOnDisconnected B, force B, forceDeleteReplicationMetadata B',
    c: true,
  }),
  op('POST', '/replication/floatingips/create', 'Create a replication floating IP', {
    c: true,
    body: 'Name S, Nodes [S], Interfaces [S], Addresses [S], Mask S, Gateway S, Force B',
  }),
  op('DELETE', '/replication/floatingips/delete', 'Delete a replication floating IP', { q: 'name S', c: true }),
  op('POST', '/replication/floatingips/edit', 'Edit a replication floating IP', {
    c: true,
    body: 'Name S, Newname S, Nodes [S], Interfaces [S], Addresses [S], Mask S, Gateway S, Force B',
  }),
  op('GET', '/replication/floatingips/list', 'List replication floating IPs', { q: 'name S, ip S' }),

  // 4.5 Templates
  op('POST', '/templates/create', 'Create an application template', { c: true, body: 'Application S, Description S' }),
  op('DELETE', '/templates/delete', 'Delete an application template', { q: 'name S', c: true }),
  op('PUT', '/templates/edit', 'Rename a template or change its description', {
    q: 'application S',
    c: true,
    body: 'Application S, Description S',
  }),
  op('GET', '/templates/list', 'List application templates', { q: 'name S, desc B, cg B, vols B', res: list('Template') }),
  op('PUT', '/templates/snapshots/schedule', 'Schedule snapshots of a template consistency group', {
    q: 'cgid I, application S, volume S',
    c: true,
    body: 'Frequency [S], Retention [S]',
  }),
  op('POST', '/templates/volumes/create', 'Add a volume template to an application template', {
    c: true,
    body: `Application S, ${TEMPLATE_VOLUME_FIELDS}`,
  }),
  op('DELETE', '/templates/volumes/delete', 'Delete volume templates (not the whole template)', {
    q: 'application S, volumes [S]',
    c: true,
  }),
  op('PUT', '/templates/volumes/edit', 'Edit a volume template', {
    q: 'application S, volume S',
    c: true,
    body: TEMPLATE_VOLUME_FIELDS,
  }),
  op('GET', '/templates/volumes/list', 'List volume templates', { q: 'name S, desc B, cg B', res: list('Template') }),

  // 4.6 Hosts
  op('POST', '/hosts/create', 'Create a host (FC WWNs, iSCSI IQN or NVMe NQN)', { c: true, body: HOST_BODY }),
  op('DELETE', '/hosts/delete', 'Delete a host', { q: 'name S', c: true }),
  op('PUT', '/hosts/edit', 'Edit a host', { q: 'name S', c: true, body: HOST_BODY }),
  op('GET', '/hosts/list', 'List hosts', { q: 'name S, wwn B, iqn B, nqn B, mapping B, ip B', res: list('Host') }),
  op('POST', '/hosts/pair', 'Pair a host with a host on a remote system', { c: true, body: 'Name S, TargetSystem S, TargetHost S' }),
  op('DELETE', '/hosts/unpair', 'Unpair a host from a remote system', { q: 'name S, targetSystem S', c: true }),
  op('POST', '/hosts/mappings/add', 'Map volumes to hosts with LUN ids', { c: true, body: MAPPING_BODY }),
  op('DELETE', '/hosts/mappings/delete', 'Unmap volumes from hosts (all volumes of the application when none given)', {
    q: 'application S, hosts [S], volumes [S]',
    c: true,
  }),
  op('PUT', '/hosts/mappings/edit', 'Edit the volumes and LUN ids mapped to a host', {
    q: 'application S, host S',
    c: true,
    body: 'Volumes [S], LunIds [S]',
  }),
  op('GET', '/hosts/mappings/list', 'List host mappings', { q: 'application S, host S', res: list('HostMapping') }),
  op('PUT', '/hosts/wwn/add', 'Add WWNs to a host', { c: true, body: 'Name S, Wwns [S]' }),
  op('DELETE', '/hosts/wwn/delete', 'Remove WWNs from a host', { q: 'name S, wwns [S]', c: true }),

  // 4.7 Floating IPs
  op('POST', '/floatingips/create', 'Create a floating IP', { c: true, body: FLOATING_IP_BODY }),
  op('DELETE', '/floatingips/delete', 'Delete a floating IP', { q: 'name S', c: true }),
  op('PUT', '/floatingips/edit', 'Edit a floating IP', { q: 'name S', c: true, body: FLOATING_IP_BODY }),
  op('GET', '/floatingips/list', 'List floating IPs', { q: 'name S, ip S', res: list('FloatingIp') }),
  op('POST', '/floatingips/pair', 'Pair a floating IP with one on a remote system', {
    c: true,
    body: 'Name S, TargetSystem S, TargetFloatingIp S',
  }),
  op('DELETE', '/floatingips/unpair', 'Unpair a floating IP from a remote system', { q: 'name S, targetSystem S', c: true }),

  // 4.8 NAS servers
  op('POST', '/nas_servers/create', 'Create a NAS server', { c: true, body: NAS_BODY }),
  op('DELETE', '/nas_servers/delete', 'Delete a NAS server', { q: 'netbios S', c: true }),
  op('PUT', '/nas_servers/edit', 'Edit a NAS server', { q: 'name S', c: true, body: NAS_BODY }),
  op('GET', '/nas_servers/list', 'List NAS servers', { res: list('NasServer') }),
  op('PUT', '/nas_servers/directory_service/test_join', 'Test joining the directory domain', { writes: false }),

  // 4.9 Users
  op('POST', '/users/create', 'Create a user', { c: true, body: 'Name S, Password S!, Role S, Email S' }),
  op('DELETE', '/users/delete', 'Delete a user', { q: 'name S', c: true }),
  op('PUT', '/users/edit', 'Edit a user', { q: 'name S', c: true, body: 'Role S, Password S!, Email S' }),
  op('GET', '/users/list', 'List users', { q: 'name S, role S', res: list('User') }),

  // 4.10 Monitoring
  op('GET', '/monitoring/alua/live', 'Live ALUA optimized and unoptimized IOPS per volume', { res: list('AluaRecord') }),
  op('GET', '/monitoring/capacity/provisioning', 'Pool provisioning states', { res: list('PoolProvisioning') }),
  op('GET', '/monitoring/capacity/volumes', 'Capacity of application volumes', { res: list('Application') }),
  op('GET', '/monitoring/evacuations/live', 'Live tier evacuations', { res: list('EvacuationRecord') }),
  op('GET', '/monitoring/health/current', 'Current health of volumes, hardware, utilization and capacity', {
    q: 'volumes B, hardwareResources B, hardwareUtilization B, capacityUtilization B, details B',
    res: object('Health'),
  }),
  op('GET', '/monitoring/performance/history', 'Performance history (interval in minutes)', {
    q:
      'system B, application S, volumes [S], iops B, throughput B, latency B, iosize B, readOnly B, writeOnly B, ' +
      'aggrReadsWrites B, fromDate dt, toDate dt, interval I',
    res: object('PerformanceHistory'),
  }),
  op('GET', '/monitoring/performance/live', 'Live performance per volume', {
    q: 'application S, volumes [S], aggr B, iops B, throughput B, latency B, iosize B, read B, write B',
    res: list('LivePerformance'),
  }),
  op('GET', '/monitoring/reserve/current', 'Current reserve space', { res: list('ReserveRecord') }),
  op('GET', '/monitoring/top/volumes', 'Top volumes by consumption, IOPS or latency', {
    q: 'userDataConsumedSize B, retentionConsumedSize B, iops B, latency B, fromDate dt, toDate dt, limit I',
    res: object('TopVolumes'),
  }),
  op('GET', '/monitoring/utilization/history', 'Node utilization history (interval in minutes)', {
    q: 'node S, aggr B, hdd B, ssd B, nvme B, cpu B, memory B, fromDate dt, toDate dt, interval I, force B',
    res: object('UtilizationHistory'),
  }),
  op('GET', '/monitoring/utilization/live', 'Live node utilization', { q: 'node S', res: list('UtilizationLive') }),
  op('GET', '/monitoring/capacity/pools/current', 'Current pool capacity usage', {
    q: 'total B, details B',
    res: object('PoolCapacityUsage'),
  }),
  op('GET', '/monitoring/capacity/pools/history', 'Pool capacity history (interval in minutes)', {
    q: 'hdd B, ssd B, nvme B, manualPools B, fromDate dt, toDate dt, interval I, force B',
    res: object('PoolCapacityHistory'),
  }),

  // 4.11 Settings
  op('PUT', '/settings/authentication', 'Switch two-factor authentication on or off', {
    c: true,
    body: 'EnableMultifactorAuthentication B',
  }),
  op('PUT', '/settings/capacity_units', 'Choose binary or decimal capacity units', { c: true, body: 'BinaryUnits B, DecimalUnits B' }),
  op('PUT', '/settings/anomaly_detection/edit', 'Edit anomaly detection settings', {
    c: true,
    body: 'Timeframe_days I, ChangeInPercentage N',
  }),
  op('GET', '/settings/anomaly_detection/show', 'Show anomaly detection settings', { res: object('AnomalyDetectionSettings') }),

  // 4.12 Systems, version, workflows, hypervisor datastore
  op('GET', '/systems/list', 'List the systems of this management endpoint', {
    q: 'connectToAllSystems B, showNodes B',
    res: object('SystemsList'),
  }),
  op('PUT', '/systems/rename', 'Rename a system', { c: true, body: 'Name S, Id I, Newname S' }),
  op('GET', '/systems/select', 'Switch the managed system of this session', { q: 'name S, id I' }),
  op('GET', '/Version', 'Component versions', { res: object('VersionRecord') }),
  op('GET', '/workflows/volume_provisioning', 'Volume provisioning workflow', { res: object('Workflow') }),
  op('GET', '/workflows/volume_provisioning/block', 'Block volume provisioning sub-workflow', { res: object('Workflow') }),
  op('POST', '/hypervisor/datastore/plugin/create', 'Create a datastore in the hypervisor management plugin', {
    h: 'async B',
    body: 'volume Volume, datastore Datastore, SessionTokenPlugin S!, ManagerAddress S',
    res: EMPTY,
  }),

  // 4.13 Notifications
  op('GET', '/notifications/query', 'Query notification records', {
    q: 'nodes [S], minLevel S, levels [S], modules [S], startTimestamp dt, endTimestamp dt, search S, top I, descendingOrder B',
    res: list('NotificationRecord'),
  }),
  op('POST', '/notifications/test', 'Generate a test notification', { c: true, body: 'Node S, Level S, Module S, Message S' }),
  op('GET', '/notifications/settings/show', 'Show e-mail settings and notification targets', { res: object('NotificationSettings') }),
  op('DELETE', '/notifications/targets/delete', 'Delete notification targets', { q: 'name [S], force B', c: true }),
  op('PUT', '/notifications/targets/disable', 'Temporarily disable notification targets', { c: true, body: 'Name [S], Force B' }),
  op('PUT', '/notifications/targets/enable', 'Enable notification targets', { c: true, body: 'Name [S], Force B' }),
  op('GET', '/notifications/targets/list', 'List notification targets', { q: 'name S', res: list('NotificationTarget') }),
  op('PUT', '/notifications/settings/email/edit', 'Edit e-mail delivery settings', {
    c: true,
    body:
      'Server S, Port I, Username S, Password S!, SendFromAddress S, RemoveUsernameAndPassword B, RemoveSendFromAddress B, ' +
      'SecureSocketOption S, DisableCertificateValidation B, EnableCertificateValidation B',
  }),
  op('PUT', '/notifications/settings/email/reset', 'Reset e-mail delivery settings', {
    c: true,
    body: 'Force B',
    destructive: true,
  }),
  op('GET', '/notifications/settings/email/show', 'Show e-mail delivery settings', { res: object('EmailSettingsShow') }),
  op('POST', '/notifications/targets/email/add', 'Add an e-mail notification target', {
    c: true,
    body: `Email S, ${BATCH}, Name S, HideForCustomers B, Force B`,
  }),
  op('PUT', '/notifications/targets/email/edit', 'Edit an e-mail notification target', {
    c: true,
    body: `Name S, Address S, ${BATCH}, ${EDIT_SWITCHES}, HideForCustomers B, ShowForCustomers B, Force B`,
  }),
  op('POST', '/notifications/targets/logserver/add', 'Add a log server notification target', {
    c: true,
    body: `ServerUrl S, ${BATCH}, Name S, Force B`,
  }),
  op('PUT', '/notifications/targets/logserver/edit', 'Edit a log server notification target', {
    c: true,
    body: `Name S, ServerUrl S, ${BATCH}, ${EDIT_SWITCHES}, Force B`,
  }),
  op('POST', '/notifications/targets/chathook/add', 'Add a chat webhook notification target', {
    c: true,
    body: `WebhookUrl S, ${BATCH}, Name S, Force B`,
  }),
  op('PUT', '/notifications/targets/chathook/edit', 'Edit a chat webhook notification target', {
    c: true,
    body: `Name S, WebhookUrl S, ${BATCH}, ${EDIT_SWITCHES}, Force B`,
  }),
  op('POST', '/notifications/targets/snmp/add', 'Add an SNMP notification target', {
    c: true,
    body:
      'Ip S, ManagerPort I, MinLevel S, Modules [S], CommunityString S!, TrapVersion S, V3Context S, V3Username S, ' +
      'V3AuthPhrase S!, V3PrivacyPhrase S!, Name S, Force B',
  }),
  op('PUT', '/notifications/targets/snmp/edit', 'Edit an SNMP notification target', {
    c: true,
    body:
      'Name S, ManagerAddress S, ManagerPort I, MinLevel S, Modules [S], CommunityString S!, TrapVersion S, V3Context S, ' +
      `V3Username S, V3AuthPhrase S!, V3PrivacyPhrase S!, ${EDIT_SWITCHES}, Force B`,
  }),
  op('POST', '/notifications/targets/remote_support/add', 'Add the vendor remote support notification target', { c: true }),
  op('POST', '/notifications/targets/syslog/add', 'Add a syslog notification target', {
    c: true,
    body: `ConnectionType S, ServerAddress S, ServerPort I, SslProtocol S, ${BATCH}, Name S, Force B`,
  }),
  op('PUT', '/notifications/targets/syslog/edit', 'Edit a syslog notification target', {
    c: true,
    body: `Name S, ConnectionType S, ServerAddress S, ServerPort I, SslProtocol S, ${BATCH}, ${EDIT_SWITCHES}, Force B`,
  }),

  // 4.14 Login
  op('POST', '/login', 'Log in and obtain a session token', {
    body:
      'Username S, Password S!, TwoFactorAuthenticationToken S!, EmailVerficationUpdatedEmailAddress S, EmailVerificationToken S!, ' +
      'InactivityTimeoutInMinutes I',
    res: object('AuthenticationResult'),
    writes: false,
    authenticated: false,
    responseSecrets: ['SessionToken'],
  }),
  op('POST', '/resetpassword', 'Reset a user password', {
    body: 'Username S, Email S',
    res: EMPTY,
    authenticated: false,
    destructive: true,
  }),

  // Index entry only: parameters and response not shown.
  op('GET', '/configurations/list', 'List configurations (parameters not shown: free-form query)', {
    res: { kind: 'unknown' },
    freeformQuery: true,
    inferred: true,
  }),
];

const BY_KEY = new Map(OPERATIONS.map((o) => [o.key, o]));

/** Looks an operation up by `METHOD /path` (path case-insensitive, as the service matches it). */
export function findOperation(method: string, path: string): Operation | undefined {
  const exact = BY_KEY.get(`${method.toUpperCase()} ${path}`);
  if (exact) return exact;
  const m = method.toUpperCase();
  const p = path.toLowerCase();
  return OPERATIONS.find((o) => o.method === m && o.path.toLowerCase() === p);
}

/** Like `findOperation` but throws a clear error for an unknown operation. */
export function getOperation(key: string): Operation {
  const m = /^\s*(GET|POST|PUT|DELETE)\s+(\/\S*)\s*$/i.exec(key);
  if (!m) throw new InputError(`"${key}" is not an operation: write it as "METHOD /path", for example "GET /hosts/list"`);
  const found = findOperation(m[1] as string, m[2] as string);
  if (!found) throw new InputError(`unknown operation "${key}": see "fleetdeck operations" for the list`, 'not-found');
  return found;
}

/** Every secret field name of the interface, request and response side (leaf names). */
export const SECRET_FIELD_NAMES: readonly string[] = [
  ...new Set([
    ...OPERATIONS.flatMap((o) => o.secrets.map((s) => s.split('.').pop() as string)),
    'SessionToken',
    'ChapSecret',
    'AccessKeys',
    'EncryptionKey',
    'Password',
  ]),
].sort();
