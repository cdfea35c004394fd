/**
 * Values the interface types only as strings but systems accept from a fixed set, where the
 * document or the systems' own refusals name them. Forms offer these as choices (and still show any
 * other value a system reports); the simulator accepts exactly these.
 */

/** Notification modules: what records name in `Module` and target `Modules` lists listen to. */
export const NOTIFICATION_MODULES = [
  'Applications', 'Authentication', 'HA', 'Hardware', 'Hosts', 'Hypervisor', 'Management', 'Monitoring', 'NAS',
  'Network', 'Nodes', 'Notifications', 'Replication', 'Settings', 'Systems', 'Templates', 'Users',
] as const;
