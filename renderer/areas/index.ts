import { lazyPart, type LazyPart } from '../lib/lazy.js';
import { AREA_LIST } from './list.js';
import type { AreaDef, AreaProps } from './types.js';

export type { AreaDef, AreaGroup, AreaInfo, AreaProps } from './types.js';

/** Each area's component, its own script chunk loaded when first opened (`lib/lazy.ts`). */
const PARTS: Readonly<Record<string, LazyPart<AreaProps>>> = {
  summary: lazyPart('the Summary area', () => import('./summary/SummaryArea.svelte')),
  monitoring: lazyPart('the Monitoring area', () => import('./monitoring/MonitoringArea.svelte')),
  notifications: lazyPart('the Notifications area', () => import('./notifications/NotificationsArea.svelte')),
  hardware: lazyPart('the Hardware area', () => import('./hardware/HardwareArea.svelte')),
  applications: lazyPart('the Applications & volumes area', () => import('./applications/ApplicationsArea.svelte')),
  templates: lazyPart('the Templates area', () => import('./templates/TemplatesArea.svelte')),
  filesystems: lazyPart('the File systems area', () => import('./filesystems/FileSystemsArea.svelte')),
  hosts: lazyPart('the Hosts & mappings area', () => import('./hosts/HostsArea.svelte')),
  nas: lazyPart('the NAS servers area', () => import('./nas/NasArea.svelte')),
  'floating-ips': lazyPart('the Floating IPs area', () => import('./floating-ips/FloatingIpsArea.svelte')),
  replication: lazyPart('the Replication area', () => import('./replication/ReplicationArea.svelte')),
  users: lazyPart('the Users area', () => import('./users/UsersArea.svelte')),
  'notification-targets': lazyPart('the Notification targets area', () => import('./notification-targets/NotificationTargetsArea.svelte')),
  settings: lazyPart('the Settings area', () => import('./settings/SettingsArea.svelte')),
  systems: lazyPart('the Systems & rename area', () => import('./systems/SystemsArea.svelte')),
  version: lazyPart('the Version area', () => import('./version/VersionArea.svelte')),
  workflows: lazyPart('the Workflows area', () => import('./workflows/WorkflowsArea.svelte')),
  datastore: lazyPart('the Hypervisor datastore area', () => import('./datastore/DatastoreArea.svelte')),
  console: lazyPart('the Operation console area', () => import('./console/ConsoleArea.svelte')),
};

/**
 * Every area of a system page, in display order (`list.ts`), with its component: what the system
 * page reads. The fleet tree and the command palette need the list, not the areas.
 */
export const AREAS: readonly AreaDef[] = AREA_LIST.map((a) => {
  const part = PARTS[a.id];
  if (!part) throw new Error(`area ${a.id} has no component`);
  return { ...a, part };
});

export function areaById(id: string): AreaDef | undefined {
  return AREAS.find((a) => a.id === id);
}
