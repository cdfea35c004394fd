import type { Field, ScalarType, ValueType } from './types.js';

/**
 * A compact field notation that mirrors the document's tables, so the catalog reads like them:
 * `"Name S, Wwns [S], ChapSecret S!, Tiers Tiers"` — S string, I integer, N number, B boolean,
 * dt date-time, [X] array of X, a capitalised word a named nested object; `!` marks a secret.
 */
export function fields(spec: string, objects: Readonly<Record<string, readonly Field[]>> = NESTED): Field[] {
  if (spec.trim() === '') return [];
  return spec.split(',').map((part) => {
    const m = /^\s*(\S+)\s+(\S+?)(!?)\s*$/.exec(part);
    if (!m) throw new Error(`catalog: bad field spec "${part}"`);
    const [, name, typeText, bang] = m as unknown as [string, string, string, string];
    const field: Field = { name, type: parseType(typeText, objects) };
    return bang === '!' ? { ...field, secret: true } : field;
  });
}

/** The scalar a letter of the notation names (`S`, `I`, `N`, `B`, `dt`), or undefined. */
export function scalarOf(text: string): ScalarType | undefined {
  switch (text) {
    case 'S':
      return 'string';
    case 'I':
      return 'integer';
    case 'N':
      return 'number';
    case 'B':
      return 'boolean';
    case 'dt':
      return 'date-time';
  }
  return undefined;
}

function parseType(text: string, objects: Readonly<Record<string, readonly Field[]>>): ValueType {
  if (text.startsWith('[') && text.endsWith(']')) return { array: parseType(text.slice(1, -1), objects) };
  const scalar = scalarOf(text);
  if (scalar) return scalar;
  const nested = objects[text];
  if (!nested) throw new Error(`catalog: unknown type "${text}"`);
  return { object: text, fields: nested };
}

const TIERS = fields(
  'TierEntityIds [I], TierPools [S], TierN [I], TierK [I], TierSizesInBytes [I], EvacuationThresholdsInPercentage [N], ' +
    'LowerThresholdsInPercentage [N], TierDataDegradationHistogram [[I]], TierMetadataDegradationHistogram [[I]]',
  {},
);

const SHARE = fields(
  'Application S, Volume S, Share S, Path S, Browsable B, RecycleBin B, ReadonlyAccess B, Smb B, Nfs B, AllowedSubnets [S]',
  {},
);

const STATS_INFO = fields(
  'UserDataAllocatedSizeInBytes N, UserDataConsumedSizeInBytes N, UpperTierAllocatedSizeInBytes N, UpperTierConsumedSizeInBytes N, ' +
    'RetentionAllocatedSizeInBytes N, RetentionConsumedSizeInBytes N, VRAIDAllocatedSizeInBytes N, VRAIDConsumedSizeInBytes N, ' +
    'Iops N, LatencyInMilliseconds N, IoSizeInBytes N, ThroughputInBytes N',
  {},
);

const FILE_SYSTEM_INFORMATION = fields(
  'MountState S, ReplicationMetadata S, EnableSnapX B, Profile S, FilesystemState S, InodeCount S, FreeInodes S, BlockSize S, ' +
    'BlockCount S, FreeBlocks S, FilesystemCreated S, LastMountTime S, LastWriteTime S, MountCount S, LastChecked S, LifeTimeWrites S',
  {},
);

const OBJECT = fields('Application S, Volume S, IP S, FloatingIp S, Port I, EnableSsl B, AccessKeys [S]!, ObjectProvider S', {});

const REPLICATION_PAIR = fields(
  'SyncInPercentage N, ReplicationId I, RemoteSystemName S, RemoteSystemId I, RemoteSystemRole S, IpAddress S, Port I, ' +
    'RemoteAppName S, RemoteVolName S, ReplicationProtocol S, ConnectionStatus S, RemoteDataStatus S, RemoteDiskStatus S',
  {},
);

const REPLICATION = fields('IpAddress S, Port I, Role S, InternalRole S, LocalDataStatus S, ReplicationPairs [ReplicationPair]', {
  ReplicationPair: REPLICATION_PAIR,
});

const VOLUME_MAPPING = fields('Host S, LunId I', {});

const VOLUME = fields(
  'Application S, Volume S, VolumeEntityId I, Id I, MetadataVolumeEntityId I, IsInternalVolume B, IsRoot B, CapacityInBytes I, ' +
    'SnapshotCapacityInBytes I, Tiers Tiers, State S, Vms [S], Shares [Share], Profile S, Mapping [VolumeMapping], Naa S, ' +
    'StatsInfo StatsInfo, FileSystemInformation FileSystemInformation, Object Object, ConnectivityType S, Replication Replication, ' +
    'Pool S, MetadataPool S, StripedPools [S], StripedMetadataPools [S], Log2StrideSectors I, DataDegradationHistogram [I], ' +
    'MetadataDegradationHistogram [I], N I, K I, MetadataN I, MetadataK I, SectorSize S, Cgid I, GroupedVolume S, ' +
    'DisableSpaceReclamation B, SaveEncryptedRecoveryKey B, Encrypted B, ReadOnly B, Force B, EncryptionKey S!, Uptime S',
  {
    Tiers: TIERS,
    Share: SHARE,
    VolumeMapping: VOLUME_MAPPING,
    StatsInfo: STATS_INFO,
    FileSystemInformation: FILE_SYSTEM_INFORMATION,
    Object: OBJECT,
    Replication: REPLICATION,
  },
);

const DATASTORE = fields('Name S, Type S, Volume [S], Details [S], HypervisorHosts [S], Vms [S]', {});

/** Nested objects that appear in request bodies (section 2 shapes). */
export const NESTED: Readonly<Record<string, readonly Field[]>> = {
  Tiers: TIERS,
  Volume: VOLUME,
  Datastore: DATASTORE,
};
