import type { OperationKey } from '../../app/catalog/index.js';
import type { VersionRecord, Workflow } from '../../app/catalog/resources.js';
import { findApp } from '../state/lookup.js';
import { LEVEL } from '../state/notifications.js';
import { EMPTY } from './context.js';
import type { HandlerMap } from './context.js';

/** A workflow step naming a catalog operation (a key tsc checks against the catalog). */
function command(key: OperationKey, displayName: string, allowSkipping = false, allowRecurrentOperations = false): NonNullable<Workflow['OrderedCommands']>[number] {
  return { Command: key, DisplayName: displayName, AllowSkipping: allowSkipping, AllowRecurrentOperations: allowRecurrentOperations };
}

const BLOCK: Workflow = {
  Path: '/workflows/volume_provisioning/block',
  DisplayName: 'Block volumes',
  RedirectPathOnSuccess: '/applications/list',
  TitleForChildrenSelection: '',
  OrderedCommands: [
    command('POST /templates/create', 'Create a template', true),
    command('POST /templates/volumes/create', 'Add volumes to the template', true, true),
    command('POST /applications/create', 'Create the application from the template'),
    command('POST /hosts/create', 'Create hosts', true, true),
    command('POST /hosts/mappings/add', 'Map the volumes to hosts', false, true),
  ],
  Children: [],
};

const WORKFLOW: Workflow = {
  Path: '/workflows/volume_provisioning',
  DisplayName: 'Volume provisioning',
  RedirectPathOnSuccess: '/applications/list',
  TitleForChildrenSelection: 'How will the volumes be used?',
  OrderedCommands: [],
  Children: [
    BLOCK,
    {
      Path: '/workflows/volume_provisioning/nas',
      DisplayName: 'NAS file systems',
      RedirectPathOnSuccess: '/applications/filesystems/list',
      TitleForChildrenSelection: '',
      OrderedCommands: [
        command('POST /applications/create', 'Create the application from a template'),
        command('POST /applications/filesystems/add', 'Create file systems'),
        command('PUT /applications/filesystems/mount', 'Mount the file systems'),
        command('POST /floatingips/create', 'Create a floating IP', true),
        command('POST /nas_servers/create', 'Create a NAS server', true),
      ],
      Children: [
        {
          Path: '/workflows/volume_provisioning/nas/replicated',
          DisplayName: 'Replicated NAS',
          RedirectPathOnSuccess: '/replication/list',
          TitleForChildrenSelection: '',
          OrderedCommands: [
            command('POST /floatingips/pair', 'Pair the floating IP with the target system'),
            command('POST /replication/start', 'Start replication', false, true),
          ],
          Children: [],
        },
      ],
    },
  ],
};

/**
 * Configuration records (GET /configurations/list; not shown by the document). Our choice: a list of
 * {Name, Value, Description} entries for the system; the free-form query `name` filters by name.
 */
function configurations(system: { name: string; binaryUnits: boolean; isns: { address: string } }): Array<{ Name: string; Value: string; Description: string }> {
  return [
    { Name: 'SystemName', Value: system.name, Description: 'Name of the managed system' },
    { Name: 'CapacityUnits', Value: system.binaryUnits ? 'Binary' : 'Decimal', Description: 'Units used to show capacity' },
    { Name: 'NtpServers', Value: '0.pool.ntp.org,1.pool.ntp.org', Description: 'Time servers' },
    { Name: 'DnsServers', Value: '10.0.0.53,10.0.1.53', Description: 'Name servers' },
    { Name: 'TimeZone', Value: 'UTC', Description: 'Time zone of the nodes' },
    { Name: 'IsnsServer', Value: system.isns.address, Description: 'iSNS server address' },
  ];
}

export const miscHandlers: HandlerMap = {
  'GET /Version': (ctx) => {
    const out: VersionRecord = { Versions: ctx.system.versions.map((v) => ({ ...v })) };
    return out;
  },
  'GET /workflows/volume_provisioning': () => WORKFLOW,
  'GET /workflows/volume_provisioning/block': () => BLOCK,

  'POST /hypervisor/datastore/plugin/create': (ctx) => {
    // The document lists only 200 for this operation, so problems are reported as notifications.
    const ds = ctx.body.obj('datastore');
    const vol = ctx.body.obj('volume');
    const appName = vol?.str('Application');
    const volName = vol?.str('Volume');
    const app = findApp(ctx.system, appName);
    const found = app?.volumes.some((v) => v.name.toLowerCase() === (volName ?? '').toLowerCase());
    const name = ds?.str('Name') ?? '';
    ctx.notify(
      found && name
        ? { level: LEVEL.info, module: 'Hypervisor', message: `Datastore '${name}' created on volume ${appName}/${volName}${ctx.headers.bool('async') ? ' (asynchronously)' : ''}.` }
        : { level: LEVEL.error, module: 'Hypervisor', message: `Datastore '${name}' could not be created: volume '${appName ?? ''}/${volName ?? ''}' not found or datastore name missing.` },
    );
    ctx.audited = true;
    return EMPTY;
  },

  'GET /configurations/list': (ctx) => {
    const name = ctx.query.raw()['name'];
    const all = configurations(ctx.system);
    return { Data: typeof name === 'string' && name !== '' ? all.filter((c) => c.Name.toLowerCase() === name.toLowerCase()) : all };
  },
};
