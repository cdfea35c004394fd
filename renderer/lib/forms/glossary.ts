/**
 * Field labels in an admin's words. The interface names fields for machines (`SslProtocol`,
 * `CapacityInBytes`, `Cgid`); forms show these words instead, and any field not listed is turned
 * into words from its name (`BatchPostingLimit` → "Batch posting limit"), acronyms kept upper-case.
 */
const GLOSSARY: Readonly<Record<string, string>> = {
  CapacityInBytes: 'Size',
  SnapshotCapacityInBytes: 'Snapshot space',
  Pool: 'Pool',
  MetadataPool: 'Metadata pool',
  StripedPools: 'Striped pools',
  StripedMetadataPools: 'Striped metadata pools',
  N: 'Data stripes (N)',
  K: 'Parity stripes (K)',
  MetadataN: 'Metadata data stripes (N)',
  MetadataK: 'Metadata parity stripes (K)',
  SectorSize: 'Sector size',
  Log2StrideSectors: 'Stride (log₂ sectors)',
  Cgid: 'Consistency group',
  Cgids: 'Consistency groups',
  GroupedVolume: 'Grouped with volume',
  DisableSpaceReclamation: 'Do not reclaim freed space',
  SaveEncryptedRecoveryKey: 'Save the encrypted recovery key',
  Force: 'Skip the system’s approval prompt',
  force: 'Skip the system’s approval prompt',
  SslProtocol: 'TLS version',
  ConnectionType: 'Transport',
  ServerAddress: 'Server address',
  ServerPort: 'Server port',
  ServerUrl: 'Server URL',
  WebhookUrl: 'Webhook URL',
  ManagerPort: 'Manager port',
  ManagerAddress: 'Manager address',
  TrapVersion: 'SNMP version',
  CommunityString: 'Community string',
  V3Username: 'SNMPv3 user',
  V3AuthPhrase: 'SNMPv3 authentication phrase',
  V3PrivacyPhrase: 'SNMPv3 privacy phrase',
  V3Context: 'SNMPv3 context',
  MinLevel: 'Minimum level',
  Modules: 'Modules',
  BatchPostingLimit: 'Records per batch',
  BatchPostingPeriod: 'Seconds between batches',
  HideForCustomers: 'Hide from customers',
  ShowForCustomers: 'Show to customers',
  NewName: 'New name',
  Newname: 'New name',
  LunIds: 'LUN ids',
  Wwns: 'FC WWNs',
  Iqn: 'iSCSI IQN',
  Nqn: 'NVMe NQN',
  ChapName: 'CHAP user',
  ChapSecret: 'CHAP secret',
  DriveIds: 'Drives',
  ManualPool: 'Pool',
  TargetSystem: 'Target system',
  targetSystem: 'Target system',
  Synchronous: 'Synchronous',
  Semisynchronous: 'Semi-synchronous',
  Asynchronous: 'Asynchronous',
  uncommitAndAggregateId: 'Batch id (apply later)',
  async: 'Run in the background',
  fromDate: 'From',
  toDate: 'To',
  interval: 'Interval (minutes)',
};

/** Abbreviations shown upper-case when a name is turned into words. */
const ACRONYMS = new Set(['ip', 'iqn', 'nqn', 'wwn', 'lun', 'id', 'url', 'ssl', 'tls', 'smb', 'nfs', 'nas', 'chap', 'isns', 'sed', 'vss', 'ha', 'dns', 'ntp', 'snmp', 'fc', 'nvme', 'cpu', 'vm', 'ldap', 'tcp', 'udp', 'rdma']);

/** `BatchPostingLimit` → "Batch posting limit"; `targetSystem` → "Target system"; `IpAddress` → "IP address". */
export function words(name: string): string {
  const parts = name
    .replace(/InBytes$/, '')
    .replace(/InPercentage$/, ' (%)')
    .replace(/InSeconds$/, ' (s)')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/\s+/)
    .filter(Boolean);
  return parts
    .map((p, i) => {
      const lower = p.toLowerCase();
      if (ACRONYMS.has(lower)) return lower.toUpperCase();
      if (lower.endsWith('s') && ACRONYMS.has(lower.slice(0, -1))) return `${lower.slice(0, -1).toUpperCase()}s`;
      return i === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
    })
    .join(' ');
}

/** The label of a field by its wire name (array items `Name[2]` become "Name 3"). */
export function glossaryLabel(name: string): string {
  const item = /^(.*)\[(\d+)\]$/.exec(name);
  if (item) return `${glossaryLabel(item[1] ?? '')} ${Number(item[2]) + 1}`;
  return GLOSSARY[name] ?? words(name);
}
