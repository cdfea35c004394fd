import ApplicationsArea from './applications/ApplicationsArea.svelte';
import ConsoleArea from './console/ConsoleArea.svelte';
import DatastoreArea from './datastore/DatastoreArea.svelte';
import FileSystemsArea from './filesystems/FileSystemsArea.svelte';
import FloatingIpsArea from './floating-ips/FloatingIpsArea.svelte';
import HardwareArea from './hardware/HardwareArea.svelte';
import HostsArea from './hosts/HostsArea.svelte';
import MonitoringArea from './monitoring/MonitoringArea.svelte';
import NasArea from './nas/NasArea.svelte';
import NotificationTargetsArea from './notification-targets/NotificationTargetsArea.svelte';
import NotificationsArea from './notifications/NotificationsArea.svelte';
import ReplicationArea from './replication/ReplicationArea.svelte';
import SettingsArea from './settings/SettingsArea.svelte';
import SummaryArea from './summary/SummaryArea.svelte';
import SystemsArea from './systems/SystemsArea.svelte';
import TemplatesArea from './templates/TemplatesArea.svelte';
import type { AreaDef } from './types.js';
import UsersArea from './users/UsersArea.svelte';
import VersionArea from './version/VersionArea.svelte';
import WorkflowsArea from './workflows/WorkflowsArea.svelte';

export type { AreaDef, AreaGroup, AreaProps } from './types.js';

/**
 * Every area of a system page, in display order. The fleet tree, the command palette and the system
 * page all read this list: adding an area here is all it takes to make it reachable.
 */
export const AREAS: readonly AreaDef[] = [
  { id: 'summary', title: 'Summary', group: 'Health', component: SummaryArea, ready: true, keywords: ['health', 'overview'] },
  { id: 'monitoring', title: 'Monitoring', group: 'Health', component: MonitoringArea, ready: true, keywords: ['performance', 'utilization', 'capacity', 'days until full', 'alua', 'reserve', 'evacuations', 'top volumes'] },
  { id: 'notifications', title: 'Notifications', group: 'Health', component: NotificationsArea, ready: true, keywords: ['events', 'alerts', 'log'] },
  { id: 'hardware', title: 'Hardware', group: 'Hardware', component: HardwareArea, ready: true, keywords: ['nodes', 'drives', 'smart', 'nics', 'ping', 'takeover', 'giveback', 'sensors'] },
  { id: 'applications', short: 'Applications', title: 'Applications & volumes', group: 'Storage', component: ApplicationsArea, ready: true, keywords: ['volumes', 'snapshots', 'consistency groups'] },
  { id: 'templates', title: 'Templates', group: 'Storage', component: TemplatesArea, ready: true, keywords: ['application templates'] },
  { id: 'filesystems', title: 'File systems', group: 'Storage', component: FileSystemsArea, ready: true, keywords: ['mount'] },
  { id: 'hosts', short: 'Hosts', title: 'Hosts & mappings', group: 'Access', component: HostsArea, ready: true, keywords: ['initiators', 'wwn', 'iqn', 'nqn', 'lun'] },
  { id: 'nas', short: 'NAS', title: 'NAS servers', group: 'Access', component: NasArea, ready: true, keywords: ['smb', 'nfs'] },
  { id: 'floating-ips', title: 'Floating IPs', group: 'Access', component: FloatingIpsArea, ready: true, keywords: ['ip addresses'] },
  { id: 'replication', title: 'Replication', group: 'Protection', component: ReplicationArea, ready: true, keywords: ['sync', 'promote'] },
  { id: 'users', title: 'Users', group: 'Administration', component: UsersArea, ready: true, keywords: ['roles', 'two-factor'] },
  { id: 'notification-targets', short: 'Targets', title: 'Notification targets', group: 'Administration', component: NotificationTargetsArea, ready: true, keywords: ['email', 'syslog', 'snmp', 'webhook'] },
  { id: 'settings', title: 'Settings', group: 'Administration', component: SettingsArea, ready: true, keywords: ['capacity units', 'anomaly detection', 'authentication'] },
  { id: 'systems', short: 'Systems', title: 'Systems & rename', group: 'Administration', component: SystemsArea, ready: true, keywords: ['rename', 'select'] },
  { id: 'version', title: 'Version', group: 'Administration', component: VersionArea, ready: true, keywords: ['components', 'build'] },
  { id: 'workflows', title: 'Workflows', group: 'Tools', component: WorkflowsArea, ready: true, keywords: ['volume provisioning'] },
  { id: 'datastore', short: 'Datastore', title: 'Hypervisor datastore', group: 'Tools', component: DatastoreArea, ready: true, keywords: ['plugin'] },
  { id: 'console', short: 'Console', title: 'Operation console', group: 'Tools', component: ConsoleArea, ready: true, keywords: ['operations', 'api', 'catalog'] },
];

export function areaById(id: string): AreaDef | undefined {
  return AREAS.find((a) => a.id === id);
}
