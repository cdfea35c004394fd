import { lazyPart } from '../lib/lazy.js';
import type { AreaDef } from './types.js';

export type { AreaDef, AreaGroup, AreaProps } from './types.js';

/**
 * Every area of a system page, in display order. The fleet tree, the command palette and the system
 * page all read this list: adding an area here is all it takes to make it reachable. Each area is
 * its own script chunk, loaded when first opened (`lib/lazy.ts`): the first frame needs the list,
 * not the areas.
 */
export const AREAS: readonly AreaDef[] = [
  { id: 'summary', title: 'Summary', group: 'Health', part: lazyPart('the Summary area', () => import('./summary/SummaryArea.svelte')), ready: true, keywords: ['health', 'overview'] },
  { id: 'monitoring', title: 'Monitoring', group: 'Health', part: lazyPart('the Monitoring area', () => import('./monitoring/MonitoringArea.svelte')), ready: true, keywords: ['performance', 'utilization', 'capacity', 'days until full', 'alua', 'reserve', 'evacuations', 'top volumes'] },
  { id: 'notifications', title: 'Notifications', group: 'Health', part: lazyPart('the Notifications area', () => import('./notifications/NotificationsArea.svelte')), ready: true, keywords: ['events', 'alerts', 'log'] },
  { id: 'hardware', title: 'Hardware', group: 'Hardware', part: lazyPart('the Hardware area', () => import('./hardware/HardwareArea.svelte')), ready: true, keywords: ['nodes', 'drives', 'smart', 'nics', 'ping', 'takeover', 'giveback', 'sensors'] },
  { id: 'applications', short: 'Applications', title: 'Applications & volumes', group: 'Storage', part: lazyPart('the Applications & volumes area', () => import('./applications/ApplicationsArea.svelte')), ready: true, keywords: ['volumes', 'snapshots', 'consistency groups'] },
  { id: 'templates', title: 'Templates', group: 'Storage', part: lazyPart('the Templates area', () => import('./templates/TemplatesArea.svelte')), ready: true, keywords: ['application templates'] },
  { id: 'filesystems', title: 'File systems', group: 'Storage', part: lazyPart('the File systems area', () => import('./filesystems/FileSystemsArea.svelte')), ready: true, keywords: ['mount'] },
  { id: 'hosts', short: 'Hosts', title: 'Hosts & mappings', group: 'Access', part: lazyPart('the Hosts & mappings area', () => import('./hosts/HostsArea.svelte')), ready: true, keywords: ['initiators', 'wwn', 'iqn', 'nqn', 'lun'] },
  { id: 'nas', short: 'NAS', title: 'NAS servers', group: 'Access', part: lazyPart('the NAS servers area', () => import('./nas/NasArea.svelte')), ready: true, keywords: ['smb', 'nfs'] },
  { id: 'floating-ips', title: 'Floating IPs', group: 'Access', part: lazyPart('the Floating IPs area', () => import('./floating-ips/FloatingIpsArea.svelte')), ready: true, keywords: ['ip addresses'] },
  { id: 'replication', title: 'Replication', group: 'Protection', part: lazyPart('the Replication area', () => import('./replication/ReplicationArea.svelte')), ready: true, keywords: ['sync', 'promote'] },
  { id: 'users', title: 'Users', group: 'Administration', part: lazyPart('the Users area', () => import('./users/UsersArea.svelte')), ready: true, keywords: ['roles', 'two-factor'] },
  { id: 'notification-targets', short: 'Targets', title: 'Notification targets', group: 'Administration', part: lazyPart('the Notification targets area', () => import('./notification-targets/NotificationTargetsArea.svelte')), ready: true, keywords: ['email', 'syslog', 'snmp', 'webhook'] },
  { id: 'settings', title: 'Settings', group: 'Administration', part: lazyPart('the Settings area', () => import('./settings/SettingsArea.svelte')), ready: true, keywords: ['capacity units', 'anomaly detection', 'authentication'] },
  { id: 'systems', short: 'Systems', title: 'Systems & rename', group: 'Administration', part: lazyPart('the Systems & rename area', () => import('./systems/SystemsArea.svelte')), ready: true, keywords: ['rename', 'select'] },
  { id: 'version', title: 'Version', group: 'Administration', part: lazyPart('the Version area', () => import('./version/VersionArea.svelte')), ready: true, keywords: ['components', 'build'] },
  { id: 'workflows', title: 'Workflows', group: 'Tools', part: lazyPart('the Workflows area', () => import('./workflows/WorkflowsArea.svelte')), ready: true, keywords: ['volume provisioning'] },
  { id: 'datastore', short: 'Datastore', title: 'Hypervisor datastore', group: 'Tools', part: lazyPart('the Hypervisor datastore area', () => import('./datastore/DatastoreArea.svelte')), ready: true, keywords: ['plugin'] },
  { id: 'console', short: 'Console', title: 'Operation console', group: 'Tools', part: lazyPart('the Operation console area', () => import('./console/ConsoleArea.svelte')), ready: true, keywords: ['operations', 'api', 'catalog'] },
];

export function areaById(id: string): AreaDef | undefined {
  return AREAS.find((a) => a.id === id);
}
