import { InputError } from '../errors.js';
import { RESOURCES, type DataList, type Resource, type ResourceName, type Resources } from './resources.js';
import { B, DT, I, N, S, list, ref, secret, unwrapSecret, type FieldSchema, type InferShape, type ObjectSchema } from './schema.js';
import type { Field, Group, HttpMethod, Operation, ValueType } from './types.js';

/**
 * The operation catalog: every operation of the storage management service interface
 * (docs/interface.md, section 4 and the configurations index entry), declared once. It is the
 * single source for the client, the simulator, the operation console and the CLI at run time, and
 * for the compiler: `OperationKey` is the union of its keys, and `QueryOf`, `BodyOf`, `HeadersOf`
 * and `ResultOf` follow from a key, so a misspelt operation or field fails `tsc`.
 *
 * Fields are written in the notation of `schema.ts` (`S` string, `I` integer, `list(S)`,
 * `secret(S)`, `ref('Tiers')` a resource type of `resources.ts`).
 */

const STRING = { kind: 'string' } as const;
const EMPTY = { kind: 'empty' } as const;
const listOf = <const T extends ResourceName>(item: T) => ({ kind: 'list', item }) as const;
const objectOf = <const T extends ResourceName>(type: T) => ({ kind: 'object', type }) as const;

/** The C pair: optional on every operation that is not a pure read. */
const C = { async: B, uncommitAndAggregateId: S } as const;

/** What an operation declares; everything but the summary is optional. */
interface OpSpec {
  /** Query parameters. */
  readonly q?: ObjectSchema;
  /** Adds the C pair. */
  readonly c?: boolean;
  /** Body fields; omitted means no body. */
  readonly body?: ObjectSchema;
  /** Header parameters. */
  readonly h?: ObjectSchema;
  readonly res?: typeof STRING | typeof EMPTY | ReturnType<typeof listOf> | ReturnType<typeof objectOf> | { readonly kind: 'unknown' };
  readonly writes?: boolean;
  readonly destructive?: boolean;
  readonly authenticated?: boolean;
  readonly freeformQuery?: boolean;
  readonly inferred?: boolean;
  /** Secrets in the response (dotted paths). */
  readonly responseSecrets?: readonly string[];
}

/** Carries an operation's declaration for the compiler only; never present at run time. */
declare const DECLARED: unique symbol;

/** An operation as `op()` declares it: its key as a literal type and its declaration as a phantom. */
export interface DeclaredOperation<K extends string, Spec extends OpSpec> extends Operation {
  readonly key: K;
  readonly [DECLARED]?: Spec;
}

function groupOf(path: string): Group {
  const first = path.split('/')[1]?.toLowerCase() ?? '';
  if (first === 'resetpassword') return 'login';
  return first as Group;
}

/** The run-time type of a declared field: refs expand to the resource's fields (for forms and validation). */
function valueType(schema: FieldSchema, seen: readonly string[]): ValueType {
  const s = unwrapSecret(schema).schema;
  if (typeof s === 'string') return s;
  if ('values' in s) return 'string';
  if ('array' in s) return { array: valueType(s.array, seen) };
  // Request fields have no dictionaries; a map is sent as a JSON object like a named one with no known fields.
  if ('map' in s) return { object: 'object', fields: [] };
  if (seen.includes(s.ref)) throw new Error(`catalog: ${s.ref} contains itself, which a request field cannot`);
  return { object: s.ref, fields: fieldsOf(RESOURCES[s.ref as ResourceName] as ObjectSchema, [...seen, s.ref]) };
}

/** The run-time field list of a declared shape, in declaration order. */
export function fieldsOf(shape: ObjectSchema | undefined, seen: readonly string[] = []): Field[] {
  return Object.entries(shape ?? {}).map(([name, schema]) => {
    const type = valueType(schema, seen);
    return unwrapSecret(schema).secret ? { name, type, secret: true } : { name, type };
  });
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

function op<const M extends HttpMethod, const P extends string, const Spec extends OpSpec = Record<never, never>>(
  method: M,
  path: P,
  summary: string,
  spec: Spec = {} as Spec,
): DeclaredOperation<`${M} ${P}`, Spec> {
  const query = [...fieldsOf(spec.q), ...(spec.c ? fieldsOf(C) : [])];
  const headers = fieldsOf(spec.h);
  const body = fieldsOf(spec.body);
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

const HOST_BODY = { Name: S, Ip: S, Wwns: list(S), Iqn: S, ChapSecret: secret(S), Nqn: S } as const;
const MAPPING_BODY = { Application: S, Hosts: list(S), Volumes: list(S), LunIds: list(S) } as const;
const FLOATING_IP_BODY = { Name: S, Dummy: B, Address: S, Mask: S, Gateway: S, Nodes: list(S), Interfaces: list(S) } as const;
const NAS_BODY =
  { Name: S, FloatingIps: list(S), NisDomain: S, NisServer: S, Workgroup: S, DirectoryService: S, Username: S, Password: secret(S), OverwriteExistingServer: B } as const;
const TEMPLATE_VOLUME_FIELDS =
  { Volume: S, CapacityInBytes: I, Pool: S, N: I, K: I, MetadataPool: S, MetadataN: I, MetadataK: I, SectorSize: S, StripedPools: list(S), StripedMetadataPools: list(S), SnapshotCapacityInBytes: I, GroupedVolume: S, Cgid: I, Tiers: ref('Tiers') } as const;
const BATCH = { MinLevel: S, Modules: list(S), BatchPostingLimit: I, BatchPostingPeriod: I } as const;
const EDIT_SWITCHES = { NewName: S, Disable: B, Enable: B } as const;

export const OPERATIONS = [
  // 4.1 Applications
  op('POST', '/applications/create', 'Create an application instance, optionally from a template', {
    c: true,
    body: { Application: S, Template: S, Description: S },
  }),
  op('DELETE', '/applications/delete', 'Delete an application instance', { q: { application: S, force: B }, c: true }),
  op('PUT', '/applications/edit', 'Rename an application or change its description', {
    q: { application: S },
    c: true,
    body: { Application: S, Description: S },
  }),
  op('GET', '/applications/list', 'List applications with their volumes and consistency groups', {
    q: { application: S, desc: B, cg: B, vols: B },
    res: listOf('Application'),
  }),
  op('GET', '/applications/encryption/encryption_key_example', 'Show an example encryption key'),
  op('PUT', '/applications/encryption/supply_encryption_key', 'Supply the encryption key that opens an encrypted group', {
    c: true,
    body: { Cgid: I, Application: S, Volume: S, EncryptionKey: secret(S) },
  }),
  op('POST', '/applications/filesystems/add', 'Create file systems on application volumes', {
    c: true,
    body: { Application: S, Volumes: list(S), Profile: S, AddReplicationMetadata: B, EnableSnapX: B, Force: B },
  }),
  op('PUT', '/applications/filesystems/edit', 'Edit a file system', {
    q: { application: S, volume: S },
    c: true,
    body: { AddReplicationMetadata: B, EnableSnapX: B, Force: B },
  }),
  op('GET', '/applications/filesystems/list', 'List file systems of application volumes', {
    q: { application: S, volume: S },
    res: listOf('Application'),
  }),
  op('PUT', '/applications/filesystems/mount', 'Mount unmounted file systems', { c: true, body: { Application: S, Volume: S } }),
  op('POST', '/applications/mappings/add', 'Map application volumes to hosts with LUN ids', { c: true, body: MAPPING_BODY }),
  // Parameters not shown by the document; deletes send selectors as query parameters, so we mirror the add body.
  op('DELETE', '/applications/mappings/delete', 'Delete mappings of application volumes', {
    q: { application: S, hosts: list(S), volumes: list(S) },
    c: true,
    inferred: true,
  }),

  // 4.2 Nodes
  op('PUT', '/nodes/chap', 'Set the iSCSI target CHAP credentials', { c: true, body: { ChapName: S, ChapSecret: secret(S), Force: B } }),
  op('PUT', '/nodes/connect', 'Connect the management session to a node', { c: true, body: { Node: S } }),
  op('PUT', '/nodes/edit', 'Rename a node', { c: true, body: { Node: S, Newname: S } }),
  op('PUT', '/nodes/giveback', 'Give back services after a takeover (changes the HA state)', {
    c: true,
    body: { Force: B },
    destructive: true,
  }),
  op('PUT', '/nodes/isns', 'Set the iSNS server and access control', { c: true, body: { Address: S, AccessControl: B, Force: B } }),
  op('GET', '/nodes/list', 'List nodes', { q: { sensors: B, gateway: B, vols: B, ip: B, sed: B }, res: listOf('Node') }),
  op('GET', '/nodes/sessions', 'List sessions of a node', { q: { node: S }, res: listOf('Node') }),
  op('PUT', '/nodes/takeover', 'Take over the services of a node (changes the HA state)', {
    c: true,
    body: { Node: S, Force: B },
    destructive: true,
  }),
  op('GET', '/nodes/utils/run', 'Run a node utility (timeoutSeconds limits the run, default 10)', {
    q: { node: S, utility: S, args: S, timeoutSeconds: I },
    writes: true,
  }),
  op('PUT', '/nodes/support/tunnel/enable', 'Enable the support tunnel of a node', { c: true, body: { Node: S } }),
  op('PUT', '/nodes/support/tunnel/disable', 'Disable the support tunnel of a node', { c: true, body: { Node: S } }),
  op('GET', '/nodes/support/tunnel/status', 'Show the support tunnel status of every node', { res: listOf('Node') }),

  // 4.3 Resources
  op('DELETE', '/resources/delete', 'Remove hardware resources that are missing', { q: { entityIds: list(I), all: B }, c: true }),
  op('GET', '/resources/list', 'List hardware resources per node', {
    q: { resourceType: S, node: S, errors: B, details: B, sensors: B, ids: list(I) },
    res: listOf('Node'),
  }),
  op('PUT', '/resources/drives/approve', 'Approve new drives', {
    c: true,
    body: { DriveIds: list(I), All: B, Patterns: list(S), Count: I, ManualPool: S, Force: B },
  }),
  op('GET', '/resources/drives/list', 'List drives (first available node when no node is given)', {
    q: { node: S, errors: B, details: B, ids: list(I), led: B, patterns: list(S) },
    res: listOf('Drive'),
  }),
  op('GET', '/resources/drives/performance_analyzer', 'Run the drive performance analyzer', {
    q: { driveIds: list(I), all: B, ssd: B, hdd: B, nvme: B, manualPools: S, iterationTimeInSeconds: I },
    res: listOf('DrivePerformance'),
    writes: true,
  }),
  op('GET', '/resources/drives/smart', 'Show the SMART output of a drive', { q: { node: S, driveid: I } }),
  op('PUT', '/resources/drives/sed/supply_password', 'Supply the self-encrypting drive password', {
    c: true,
    body: { Password: secret(S) },
  }),
  op('PUT', '/resources/network/iscsi', 'Enable or disable iSCSI on IP addresses', { q: { ips: list(S) }, c: true, body: { Enable: B, Force: B } }),
  op('GET', '/resources/network/list', 'List network interface cards per node', {
    q: { errors: B, details: B, ids: list(I) },
    res: listOf('Node'),
  }),
  op('PUT', '/resources/network/nvmeof', 'Enable or disable NVMe over Fabrics on an IP address', {
    q: { ip: S },
    c: true,
    body: { Port: I, Enable: B, Rdma: B, Tcp: B },
  }),
  // Parameters and response not shown; the Node record's Pings field is the natural result.
  op('GET', '/resources/network/ping', 'Ping an address from the network interface cards of a node', {
    q: { node: S, address: S, nics: list(S), pingType: S },
    res: listOf('Node'),
    inferred: true,
  }),

  // 4.4 Replication
  op('PUT', '/replication/edit', 'Change the replication mode of a volume', {
    c: true,
    body: { Application: S, Volume: S, TargetSystem: S, Synchronous: B, Semisynchronous: B, Asynchronous: B },
  }),
  op('GET', '/replication/list', 'List replicated volumes', {
    q: { application: S, volume: S, filterSecondary: B, filterPrimary: B },
    res: listOf('Application'),
  }),
  op('PUT', '/replication/primary', 'Promote secondary volumes to active/primary', {
    c: true,
    body: { Application: S, Volume: list(S), Cgids: list(I), AllSecondaryVolumes: B, DummyFloatingToActivate: list(S), ActivateAllDummyFloatingIps: B, Force: B },
    destructive: true,
  }),
  op('GET', '/replication/refresh', 'Refresh replication state (reconnect=true disconnects and reconnects the link)', {
    q: { application: S, volume: S, reconnect: B },
    writes: true,
  }),
  op('POST', '/replication/start', 'Start replicating a volume to a target system', {
    c: true,
    body:
      { Application: S, Volume: S, TargetSystem: S, TargetApplication: S, TargetVolume: S, SourceFloatingIp: S, TargetFloatingIp: S, Synchronous: B, Semisynchronous: B, Asynchronous: B, Force: B },
  }),
  op('DELETE', '/replication/stop', 'Stop replicating a volume', {
    q: { application: S, volume: S, targetSystem: S, allowOnDisconnected: B, force: B, forceDeleteReplicationMetadata: B },
    c: true,
  }),
  op('POST', '/replication/floatingips/create', 'Create a replication floating IP', {
    c: true,
    body: { Name: S, Nodes: list(S), Interfaces: list(S), Addresses: list(S), Mask: S, Gateway: S, Force: B },
  }),
  op('DELETE', '/replication/floatingips/delete', 'Delete a replication floating IP', { q: { name: S }, c: true }),
  op('POST', '/replication/floatingips/edit', 'Edit a replication floating IP', {
    c: true,
    body: { Name: S, Newname: S, Nodes: list(S), Interfaces: list(S), Addresses: list(S), Mask: S, Gateway: S, Force: B },
  }),
  op('GET', '/replication/floatingips/list', 'List replication floating IPs', { q: { name: S, ip: S } }),

  // 4.5 Templates
  op('POST', '/templates/create', 'Create an application template', { c: true, body: { Application: S, Description: S } }),
  op('DELETE', '/templates/delete', 'Delete an application template', { q: { name: S }, c: true }),
  op('PUT', '/templates/edit', 'Rename a template or change its description', {
    q: { application: S },
    c: true,
    body: { Application: S, Description: S },
  }),
  op('GET', '/templates/list', 'List application templates', { q: { name: S, desc: B, cg: B, vols: B }, res: listOf('Template') }),
  op('PUT', '/templates/snapshots/schedule', 'Schedule snapshots of a template consistency group', {
    q: { cgid: I, application: S, volume: S },
    c: true,
    body: { Frequency: list(S), Retention: list(S) },
  }),
  op('POST', '/templates/volumes/create', 'Add a volume template to an application template', {
    c: true,
    body: { Application: S, ...TEMPLATE_VOLUME_FIELDS },
  }),
  op('DELETE', '/templates/volumes/delete', 'Delete volume templates (not the whole template)', {
    q: { application: S, volumes: list(S) },
    c: true,
  }),
  op('PUT', '/templates/volumes/edit', 'Edit a volume template', {
    q: { application: S, volume: S },
    c: true,
    body: TEMPLATE_VOLUME_FIELDS,
  }),
  op('GET', '/templates/volumes/list', 'List volume templates', { q: { name: S, desc: B, cg: B }, res: listOf('Template') }),

  // 4.6 Hosts
  op('POST', '/hosts/create', 'Create a host (FC WWNs, iSCSI IQN or NVMe NQN)', { c: true, body: HOST_BODY }),
  op('DELETE', '/hosts/delete', 'Delete a host', { q: { name: S }, c: true }),
  op('PUT', '/hosts/edit', 'Edit a host', { q: { name: S }, c: true, body: HOST_BODY }),
  op('GET', '/hosts/list', 'List hosts', { q: { name: S, wwn: B, iqn: B, nqn: B, mapping: B, ip: B }, res: listOf('Host') }),
  op('POST', '/hosts/pair', 'Pair a host with a host on a remote system', { c: true, body: { Name: S, TargetSystem: S, TargetHost: S } }),
  op('DELETE', '/hosts/unpair', 'Unpair a host from a remote system', { q: { name: S, targetSystem: S }, c: true }),
  op('POST', '/hosts/mappings/add', 'Map volumes to hosts with LUN ids', { c: true, body: MAPPING_BODY }),
  op('DELETE', '/hosts/mappings/delete', 'Unmap volumes from hosts (all volumes of the application when none given)', {
    q: { application: S, hosts: list(S), volumes: list(S) },
    c: true,
  }),
  op('PUT', '/hosts/mappings/edit', 'Edit the volumes and LUN ids mapped to a host', {
    q: { application: S, host: S },
    c: true,
    body: { Volumes: list(S), LunIds: list(S) },
  }),
  op('GET', '/hosts/mappings/list', 'List host mappings', { q: { application: S, host: S }, res: listOf('HostMapping') }),
  op('PUT', '/hosts/wwn/add', 'Add WWNs to a host', { c: true, body: { Name: S, Wwns: list(S) } }),
  op('DELETE', '/hosts/wwn/delete', 'Remove WWNs from a host', { q: { name: S, wwns: list(S) }, c: true }),

  // 4.7 Floating IPs
  op('POST', '/floatingips/create', 'Create a floating IP', { c: true, body: FLOATING_IP_BODY }),
  op('DELETE', '/floatingips/delete', 'Delete a floating IP', { q: { name: S }, c: true }),
  op('PUT', '/floatingips/edit', 'Edit a floating IP', { q: { name: S }, c: true, body: FLOATING_IP_BODY }),
  op('GET', '/floatingips/list', 'List floating IPs', { q: { name: S, ip: S }, res: listOf('FloatingIp') }),
  op('POST', '/floatingips/pair', 'Pair a floating IP with one on a remote system', {
    c: true,
    body: { Name: S, TargetSystem: S, TargetFloatingIp: S },
  }),
  op('DELETE', '/floatingips/unpair', 'Unpair a floating IP from a remote system', { q: { name: S, targetSystem: S }, c: true }),

  // 4.8 NAS servers
  op('POST', '/nas_servers/create', 'Create a NAS server', { c: true, body: NAS_BODY }),
  op('DELETE', '/nas_servers/delete', 'Delete a NAS server', { q: { netbios: S }, c: true }),
  op('PUT', '/nas_servers/edit', 'Edit a NAS server', { q: { name: S }, c: true, body: NAS_BODY }),
  op('GET', '/nas_servers/list', 'List NAS servers', { res: listOf('NasServer') }),
  op('PUT', '/nas_servers/directory_service/test_join', 'Test joining the directory domain', { writes: false }),

  // 4.9 Users
  op('POST', '/users/create', 'Create a user', { c: true, body: { Name: S, Password: secret(S), Role: S, Email: S } }),
  op('DELETE', '/users/delete', 'Delete a user', { q: { name: S }, c: true }),
  op('PUT', '/users/edit', 'Edit a user', { q: { name: S }, c: true, body: { Role: S, Password: secret(S), Email: S } }),
  op('GET', '/users/list', 'List users', { q: { name: S, role: S }, res: listOf('User') }),

  // 4.10 Monitoring
  op('GET', '/monitoring/alua/live', 'Live ALUA optimized and unoptimized IOPS per volume', { res: listOf('AluaRecord') }),
  op('GET', '/monitoring/capacity/provisioning', 'Pool provisioning states', { res: listOf('PoolProvisioning') }),
  op('GET', '/monitoring/capacity/volumes', 'Capacity of application volumes', { res: listOf('Application') }),
  op('GET', '/monitoring/evacuations/live', 'Live tier evacuations', { res: listOf('EvacuationRecord') }),
  op('GET', '/monitoring/health/current', 'Current health of volumes, hardware, utilization and capacity', {
    q: { volumes: B, hardwareResources: B, hardwareUtilization: B, capacityUtilization: B, details: B },
    res: objectOf('Health'),
  }),
  op('GET', '/monitoring/performance/history', 'Performance history (interval in minutes)', {
    q:
      { system: B, application: S, volumes: list(S), iops: B, throughput: B, latency: B, iosize: B, readOnly: B, writeOnly: B, aggrReadsWrites: B, fromDate: DT, toDate: DT, interval: I },
    res: objectOf('PerformanceHistory'),
  }),
  op('GET', '/monitoring/performance/live', 'Live performance per volume', {
    q: { application: S, volumes: list(S), aggr: B, iops: B, throughput: B, latency: B, iosize: B, read: B, write: B },
    res: listOf('LivePerformance'),
  }),
  op('GET', '/monitoring/reserve/current', 'Current reserve space', { res: listOf('ReserveRecord') }),
  op('GET', '/monitoring/top/volumes', 'Top volumes by consumption, IOPS or latency', {
    q: { userDataConsumedSize: B, retentionConsumedSize: B, iops: B, latency: B, fromDate: DT, toDate: DT, limit: I },
    res: objectOf('TopVolumes'),
  }),
  op('GET', '/monitoring/utilization/history', 'Node utilization history (interval in minutes)', {
    q: { node: S, aggr: B, hdd: B, ssd: B, nvme: B, cpu: B, memory: B, fromDate: DT, toDate: DT, interval: I, force: B },
    res: objectOf('UtilizationHistory'),
  }),
  op('GET', '/monitoring/utilization/live', 'Live node utilization', { q: { node: S }, res: listOf('UtilizationLive') }),
  op('GET', '/monitoring/capacity/pools/current', 'Current pool capacity usage', {
    q: { total: B, details: B },
    res: objectOf('PoolCapacityUsage'),
  }),
  op('GET', '/monitoring/capacity/pools/history', 'Pool capacity history (interval in minutes)', {
    q: { hdd: B, ssd: B, nvme: B, manualPools: B, fromDate: DT, toDate: DT, interval: I, force: B },
    res: objectOf('PoolCapacityHistory'),
  }),

  // 4.11 Settings
  op('PUT', '/settings/authentication', 'Switch two-factor authentication on or off', {
    c: true,
    body: { EnableMultifactorAuthentication: B },
  }),
  op('PUT', '/settings/capacity_units', 'Choose binary or decimal capacity units', { c: true, body: { BinaryUnits: B, DecimalUnits: B } }),
  op('PUT', '/settings/anomaly_detection/edit', 'Edit anomaly detection settings', {
    c: true,
    body: { Timeframe_days: I, ChangeInPercentage: N },
  }),
  op('GET', '/settings/anomaly_detection/show', 'Show anomaly detection settings', { res: objectOf('AnomalyDetectionSettings') }),

  // 4.12 Systems, version, workflows, hypervisor datastore
  op('GET', '/systems/list', 'List the systems of this management endpoint', {
    q: { connectToAllSystems: B, showNodes: B },
    res: objectOf('SystemsList'),
  }),
  op('PUT', '/systems/rename', 'Rename a system', { c: true, body: { Name: S, Id: I, Newname: S } }),
  op('GET', '/systems/select', 'Switch the managed system of this session', { q: { name: S, id: I } }),
  op('GET', '/Version', 'Component versions', { res: objectOf('VersionRecord') }),
  op('GET', '/workflows/volume_provisioning', 'Volume provisioning workflow', { res: objectOf('Workflow') }),
  op('GET', '/workflows/volume_provisioning/block', 'Block volume provisioning sub-workflow', { res: objectOf('Workflow') }),
  op('POST', '/hypervisor/datastore/plugin/create', 'Create a datastore in the hypervisor management plugin', {
    h: { async: B },
    body: { volume: ref('Volume'), datastore: ref('Datastore'), SessionTokenPlugin: secret(S), ManagerAddress: S },
    res: EMPTY,
  }),

  // 4.13 Notifications
  op('GET', '/notifications/query', 'Query notification records', {
    q: { nodes: list(S), minLevel: S, levels: list(S), modules: list(S), startTimestamp: DT, endTimestamp: DT, search: S, top: I, descendingOrder: B },
    res: listOf('NotificationRecord'),
  }),
  op('POST', '/notifications/test', 'Generate a test notification', { c: true, body: { Node: S, Level: S, Module: S, Message: S } }),
  op('GET', '/notifications/settings/show', 'Show e-mail settings and notification targets', { res: objectOf('NotificationSettings') }),
  op('DELETE', '/notifications/targets/delete', 'Delete notification targets', { q: { name: list(S), force: B }, c: true }),
  op('PUT', '/notifications/targets/disable', 'Temporarily disable notification targets', { c: true, body: { Name: list(S), Force: B } }),
  op('PUT', '/notifications/targets/enable', 'Enable notification targets', { c: true, body: { Name: list(S), Force: B } }),
  op('GET', '/notifications/targets/list', 'List notification targets', { q: { name: S }, res: listOf('NotificationTarget') }),
  op('PUT', '/notifications/settings/email/edit', 'Edit e-mail delivery settings', {
    c: true,
    body:
      { Server: S, Port: I, Username: S, Password: secret(S), SendFromAddress: S, RemoveUsernameAndPassword: B, RemoveSendFromAddress: B, SecureSocketOption: S, DisableCertificateValidation: B, EnableCertificateValidation: B },
  }),
  op('PUT', '/notifications/settings/email/reset', 'Reset e-mail delivery settings', {
    c: true,
    body: { Force: B },
    destructive: true,
  }),
  op('GET', '/notifications/settings/email/show', 'Show e-mail delivery settings', { res: objectOf('EmailSettingsShow') }),
  op('POST', '/notifications/targets/email/add', 'Add an e-mail notification target', {
    c: true,
    body: { Email: S, ...BATCH, Name: S, HideForCustomers: B, Force: B },
  }),
  op('PUT', '/notifications/targets/email/edit', 'Edit an e-mail notification target', {
    c: true,
    body: { Name: S, Address: S, ...BATCH, ...EDIT_SWITCHES, HideForCustomers: B, ShowForCustomers: B, Force: B },
  }),
  op('POST', '/notifications/targets/logserver/add', 'Add a log server notification target', {
    c: true,
    body: { ServerUrl: S, ...BATCH, Name: S, Force: B },
  }),
  op('PUT', '/notifications/targets/logserver/edit', 'Edit a log server notification target', {
    c: true,
    body: { Name: S, ServerUrl: S, ...BATCH, ...EDIT_SWITCHES, Force: B },
  }),
  op('POST', '/notifications/targets/chathook/add', 'Add a chat webhook notification target', {
    c: true,
    body: { WebhookUrl: S, ...BATCH, Name: S, Force: B },
  }),
  op('PUT', '/notifications/targets/chathook/edit', 'Edit a chat webhook notification target', {
    c: true,
    body: { Name: S, WebhookUrl: S, ...BATCH, ...EDIT_SWITCHES, Force: B },
  }),
  op('POST', '/notifications/targets/snmp/add', 'Add an SNMP notification target', {
    c: true,
    body:
      { Ip: S, ManagerPort: I, MinLevel: S, Modules: list(S), CommunityString: secret(S), TrapVersion: S, V3Context: S, V3Username: S, V3AuthPhrase: secret(S), V3PrivacyPhrase: secret(S), Name: S, Force: B },
  }),
  op('PUT', '/notifications/targets/snmp/edit', 'Edit an SNMP notification target', {
    c: true,
    body:
      { Name: S, ManagerAddress: S, ManagerPort: I, MinLevel: S, Modules: list(S), CommunityString: secret(S), TrapVersion: S, V3Context: S, V3Username: S, V3AuthPhrase: secret(S), V3PrivacyPhrase: secret(S), ...EDIT_SWITCHES, Force: B },
  }),
  op('POST', '/notifications/targets/remote_support/add', 'Add the vendor remote support notification target', { c: true }),
  op('POST', '/notifications/targets/syslog/add', 'Add a syslog notification target', {
    c: true,
    body: { ConnectionType: S, ServerAddress: S, ServerPort: I, SslProtocol: S, ...BATCH, Name: S, Force: B },
  }),
  op('PUT', '/notifications/targets/syslog/edit', 'Edit a syslog notification target', {
    c: true,
    body: { Name: S, ConnectionType: S, ServerAddress: S, ServerPort: I, SslProtocol: S, ...BATCH, ...EDIT_SWITCHES, Force: B },
  }),

  // 4.14 Login
  op('POST', '/login', 'Log in and obtain a session token', {
    body:
      { Username: S, Password: secret(S), TwoFactorAuthenticationToken: secret(S), EmailVerficationUpdatedEmailAddress: S, EmailVerificationToken: secret(S), InactivityTimeoutInMinutes: I },
    res: objectOf('AuthenticationResult'),
    writes: false,
    authenticated: false,
    responseSecrets: ['SessionToken'],
  }),
  op('POST', '/resetpassword', 'Reset a user password', {
    body: { Username: S, Email: S },
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
] as const;

type Declared = (typeof OPERATIONS)[number];

/** `METHOD /path` of every catalog operation: a misspelt key fails `tsc`. */
export type OperationKey = Declared['key'];

/**
 * Several operation keys named together (the forms that share their fields), each checked against
 * the catalog where it is written: `type HostOps = OperationKeys<'POST /hosts/create' | 'PUT /hosts/edit'>`.
 */
export type OperationKeys<K extends OperationKey> = K;

/** Each operation's declaration by key (type only). */
type Specs = { [O in Declared as O['key']]: NonNullable<O[typeof DECLARED]> };

type QuerySchema<Spec> = (Spec extends { readonly q: infer Q } ? Q : Record<never, never>) & (Spec extends { readonly c: true } ? typeof C : Record<never, never>);

/** The query parameters of an operation (all optional; the free-form one takes any). */
export type QueryOf<K extends OperationKey> = Specs[K] extends { readonly freeformQuery: true } ? Record<string, unknown> : InferShape<QuerySchema<Specs[K]>, Resources>;

/** The body of an operation; `never` for one that sends none. */
export type BodyOf<K extends OperationKey> = Specs[K] extends { readonly body: infer Bd } ? InferShape<Bd, Resources> : never;

/** The header parameters of an operation; `never` for one that takes none. */
export type HeadersOf<K extends OperationKey> = Specs[K] extends { readonly h: infer H } ? InferShape<H, Resources> : never;

/** What a response declaration promises once the normaliser has read the answer. */
type ResultFor<R> = R extends { readonly kind: 'list'; readonly item: infer T extends ResourceName }
  ? DataList<Resource<T>>
  : R extends { readonly kind: 'object'; readonly type: infer T extends ResourceName }
    ? Resource<T>
    : R extends { readonly kind: 'string' }
      ? string
      : R extends { readonly kind: 'empty' }
        ? undefined
        : unknown;

/**
 * The answer of an operation as the client returns it (normalised, so the type holds): a list
 * answer is `{ Data: [...] }`, an object answer the resource, a message a string.
 */
export type ResultOf<K extends OperationKey> = ResultFor<Specs[K] extends { readonly res: infer R } ? R : typeof STRING>;

/** Every operation key, in catalog order. */
export const OPERATION_KEYS = OPERATIONS.map((o) => o.key) as readonly OperationKey[] as readonly [OperationKey, ...OperationKey[]];

const KEYS: ReadonlySet<string> = new Set(OPERATION_KEYS);

/** True when `key` is exactly a catalog key (case included), as typed callers write it. */
export function isOperationKey(key: string): key is OperationKey {
  return KEYS.has(key);
}

/** The key of a catalog operation found at run time (a workflow step, a console form), checked rather than assumed. */
export function keyOf(op: Operation): OperationKey {
  if (!isOperationKey(op.key)) throw new Error(`"${op.key}" is not an operation of the catalog`);
  return op.key;
}

const BY_KEY: ReadonlyMap<string, Operation> = new Map(OPERATIONS.map((o) => [o.key, o]));

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
