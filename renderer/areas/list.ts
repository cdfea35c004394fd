import type { AreaInfo } from './types.js';

/**
 * Every area of a system page, in display order, without the components (`index.ts` adds them as
 * `AREAS`): what the fleet tree lists under each system and the command palette offers. Apart from
 * the components' loaders so the first frame's script carries only the list. Adding an
 * area here and its component in `index.ts` is all it takes to make it reachable.
 */
export const AREA_LIST: readonly AreaInfo[] = [
  { id: 'summary', title: 'Summary', group: 'Health', ready: true, keywords: ['health', 'overview'] },
  { id: 'monitoring', title: 'Monitoring', group: 'Health', ready: true, keywords: ['performance', 'utilization', 'capacity', 'days until full', 'alua', 'reserve', 'evacuations', 'top volumes'] },
  { id: 'notifications', title: 'Notifications', group: 'Health', ready: true, keywords: ['events', 'alerts', 'log'] },
  { id: 'hardware', title: 'Hardware', group: 'Hardware', ready: true, keywords: ['nodes', 'drives', 'smart', 'nics', 'ping', 'takeover', 'giveback', 'sensors'] },
  { id: 'applications', short: 'Applications', title: 'Applications & volumes', group: 'Storage', ready: true, keywords: ['volumes', 'snapshots', 'consistency groups'] },
  { id: 'templates', title: 'Templates', group: 'Storage', ready: true, keywords: ['application templates'] },
  { id: 'filesystems', title: 'File systems', group: 'Storage', ready: true, keywords: ['mount'] },
  { id: 'hosts', short: 'Hosts', title: 'Hosts & mappings', group: 'Access', ready: true, keywords: ['initiators', 'wwn', 'iqn', 'nqn', 'lun'] },
  { id: 'nas', short: 'NAS', title: 'NAS servers', group: 'Access', ready: true, keywords: ['smb', 'nfs'] },
  { id: 'floating-ips', title: 'Floating IPs', group: 'Access', ready: true, keywords: ['ip addresses'] },
  { id: 'replication', title: 'Replication', group: 'Protection', ready: true, keywords: ['sync', 'promote'] },
  { id: 'users', title: 'Users', group: 'Administration', ready: true, keywords: ['roles', 'two-factor'] },
  { id: 'notification-targets', short: 'Targets', title: 'Notification targets', group: 'Administration', ready: true, keywords: ['email', 'syslog', 'snmp', 'webhook'] },
  { id: 'settings', title: 'Settings', group: 'Administration', ready: true, keywords: ['capacity units', 'anomaly detection', 'authentication'] },
  { id: 'systems', short: 'Systems', title: 'Systems & rename', group: 'Administration', ready: true, keywords: ['rename', 'select'] },
  { id: 'version', title: 'Version', group: 'Administration', ready: true, keywords: ['components', 'build'] },
  { id: 'workflows', title: 'Workflows', group: 'Tools', ready: true, keywords: ['volume provisioning', 'provision', 'undo provisioning'] },
  { id: 'datastore', short: 'Datastore', title: 'Hypervisor datastore', group: 'Tools', ready: true, keywords: ['plugin'] },
  { id: 'console', short: 'Console', title: 'Operation console', group: 'Tools', ready: true, keywords: ['operations', 'api', 'catalog'] },
];
