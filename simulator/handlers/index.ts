import { OPERATIONS, type OperationKey } from '../../app/catalog/index.js';
import { applicationHandlers } from './applications.js';
import type { Handler, HandlerMap } from './context.js';
import { floatingIpHandlers } from './floating-ips.js';
import { hostHandlers } from './hosts.js';
import { loginHandlers } from './login.js';
import { miscHandlers } from './misc.js';
import { monitoringHandlers } from './monitoring.js';
import { nasHandlers } from './nas-servers.js';
import { nodeHandlers } from './nodes.js';
import { notificationHandlers } from './notifications.js';
import { replicationHandlers } from './replication.js';
import { resourceHandlers } from './resources.js';
import { settingsHandlers } from './settings.js';
import { systemHandlers } from './systems.js';
import { templateHandlers } from './templates.js';
import { userHandlers } from './users.js';

const GROUPS: readonly HandlerMap[] = [
  applicationHandlers, nodeHandlers, resourceHandlers, replicationHandlers, templateHandlers, hostHandlers, floatingIpHandlers,
  nasHandlers, userHandlers, monitoringHandlers, settingsHandlers, systemHandlers, miscHandlers, notificationHandlers, loginHandlers,
];

/**
 * Handlers by catalog operation key. The compiler holds each key to the catalog (`HandlerMap`);
 * here every catalog operation must have exactly one handler.
 */
export function buildHandlers(): ReadonlyMap<string, Handler> {
  const out = new Map<string, Handler>();
  for (const group of GROUPS) {
    for (const key of Object.keys(group) as OperationKey[]) {
      const handler = group[key];
      if (!handler) continue;
      if (out.has(key)) throw new Error(`two handlers for ${key}`);
      out.set(key, handler);
    }
  }
  const missing = OPERATIONS.filter((o) => !out.has(o.key)).map((o) => o.key);
  if (missing.length) throw new Error(`no simulator handler for: ${missing.join(', ')}`);
  return out;
}
