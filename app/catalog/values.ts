import { LEVEL_NAMES } from '../health/notification-level.js';

/**
 * Values the interface types only as strings but systems accept from a fixed set, where the
 * document or the systems' own refusals name them, and enumerations it reports as numbers. Forms
 * offer these as choices (and still show any other value a system reports); the simulator accepts
 * exactly these; reports and views show a number by its member's name.
 */

/** Notification modules: what records name in `Module` and target `Modules` lists listen to. */
export const NOTIFICATION_MODULES = [
  'Applications', 'Authentication', 'HA', 'Hardware', 'Hosts', 'Hypervisor', 'Management', 'Monitoring', 'NAS',
  'Network', 'Nodes', 'Notifications', 'Replication', 'Settings', 'Systems', 'Templates', 'Users',
] as const;

/**
 * How a system's mail delivery secures its connection (MailKit's SecureSocketOptions). Systems
 * report the member's number (`EmailSettings.SecureSocketOption`) and accept its name or number.
 */
export const SECURE_SOCKET_OPTIONS = ['None', 'Auto', 'SslOnConnect', 'StartTls', 'StartTlsWhenAvailable'] as const;

/** Notification target kinds by the number a target reports as its `Type`. */
export const TARGET_TYPE_NAMES = ['E-mail', 'Log server', 'Chat webhook', 'SNMP', 'Syslog', 'Remote support'] as const;

/**
 * The name of member `n` of an enumeration reported as a number (`${fallback} n` off the list); a
 * name a system reports instead is kept; undefined when there is no value.
 */
export function memberName(members: readonly string[], n: unknown, fallback: string): string | undefined {
  if (typeof n === 'number') return members[n] ?? `${fallback} ${n}`;
  return typeof n === 'string' && n !== '' ? n : undefined;
}

/** A fixed value a request field takes, with the words a person reads for it. */
export interface FieldChoice {
  value: string;
  label?: string;
}

const named = (values: readonly string[]): FieldChoice[] => values.map((value) => ({ value }));

/**
 * Request fields that take a value from a fixed set, by field name (in every operation that has
 * it): a generated form offers them as choices, never as free text.
 */
export const FIELD_CHOICES: Readonly<Record<string, readonly FieldChoice[]>> = {
  SecureSocketOption: named(SECURE_SOCKET_OPTIONS),
  MinLevel: named(LEVEL_NAMES),
  minLevel: named(LEVEL_NAMES),
  Level: named(LEVEL_NAMES),
  levels: named(LEVEL_NAMES),
  Modules: named(NOTIFICATION_MODULES),
  modules: named(NOTIFICATION_MODULES),
  TrapVersion: named(['v1', 'v2c', 'v3']),
  ConnectionType: [{ value: 'Udp', label: 'UDP' }, { value: 'Tcp', label: 'TCP' }, { value: 'Tls', label: 'TLS (encrypted TCP)' }],
  SslProtocol: [{ value: 'Tls12', label: 'TLS 1.2' }, { value: 'Tls13', label: 'TLS 1.3' }],
};
