import type { FormatId } from './formats.js';

/** Where a field of an operation sits in the request. */
export type FieldLocation = 'query' | 'headers' | 'body';

/**
 * Fields whose name alone says what they hold, in whatever operation or nested object they appear
 * (case-insensitive). `Address` is absent on purpose: it is an IP on floating IPs but an e-mail
 * address on e-mail targets, so it is mapped per operation below.
 */
const BY_NAME: Readonly<Record<string, FormatId>> = {
  wwns: 'wwn',
  iqn: 'iqn',
  nqn: 'nqn',
  lunids: 'lun',
  lunid: 'lun',
  ip: 'ip',
  ips: 'ip',
  ipaddress: 'ip',
  addresses: 'ip',
  gateway: 'ip',
  port: 'port',
  managerport: 'port',
  serverport: 'port',
  email: 'email',
};

/** Operation-specific fields, as `METHOD /path` → `location.path` (nested paths dotted, no indices). */
export const FORMATS_BY_OPERATION: Readonly<Record<string, Readonly<Record<string, FormatId>>>> = {
  'POST /floatingips/create': { 'body.Address': 'ip' },
  'PUT /floatingips/edit': { 'body.Address': 'ip' },
  'PUT /notifications/targets/email/edit': { 'body.Address': 'email' },
  'PUT /notifications/targets/snmp/edit': { 'body.ManagerAddress': 'ip' },
};

/**
 * The format a field of an operation is known to take, if any.
 * @param path the field's path below its location: `Name`, `volume.Mapping.LunId`; array indices
 *   (`Shares[0].Path`) are ignored.
 */
export function formatOfField(opKey: string, location: FieldLocation, path: string): FormatId | undefined {
  const clean = path.replace(/\[\d+\]/g, '');
  const specific = FORMATS_BY_OPERATION[opKey]?.[`${location}.${clean}`];
  if (specific) return specific;
  const leaf = (clean.split('.').pop() ?? clean).toLowerCase();
  // Every byte count of the interface ends in "InBytes" (CapacityInBytes, TierSizesInBytes): a size.
  return BY_NAME[leaf] ?? (leaf.endsWith('inbytes') ? 'size' : undefined);
}
