import type { SystemCapacity } from '../../app/capacity/pools.js';
import type { Application, Host, OperationKeys, Template, TemplateVolume } from '../../app/catalog/index.js';
import { sizeInput } from '../../app/units.js';
import { poolChoices } from '../lib/capacity.svelte.js';
import type { FieldId, FieldOptionsOf, FormValuesOf, OpRequest, ProblemsOf } from '../lib/forms/op-form.js';
import type { FormAction } from './actions.js';
import { choices, lines, volumesOf } from './shared.js';

/**
 * The forms of block provisioning — template, volume, application, host, mapping — as data, so the
 * Templates, Applications and Hosts areas and the Workflows steps open the very same dialogs.
 */

/** What the provisioning forms offer as choices, from the system's cached reads. */
export interface ProvisioningData {
  templates?: readonly Template[];
  applications?: readonly Application[];
  hosts?: readonly Host[];
  capacity?: SystemCapacity;
}

/** Sector sizes the systems take (the interface shows only a string; 512 and 4K are what systems accept). */
/** The two volume template forms, which share their fields. */
type VolumeOps = OperationKeys<'POST /templates/volumes/create' | 'PUT /templates/volumes/edit'>;
/** The two host forms. */
type HostOps = OperationKeys<'POST /hosts/create' | 'PUT /hosts/edit'>;
/** The two mapping forms, which share their rule. */
type MappingOps = OperationKeys<'POST /hosts/mappings/add' | 'POST /applications/mappings/add'>;

const SECTOR_SIZES = [
  { value: '512', label: '512 bytes' },
  { value: '4K', label: '4 KiB' },
];

export function createTemplateAction(): FormAction {
  return {
    kind: 'form',
    title: 'Create template',
    op: 'POST /templates/create',
    show: ['body.Application', 'body.Description'],
    options: { 'body.Application': { label: 'Name', required: true } },
    submitLabel: 'Create template',
  };
}

/** N+K choices of the chosen pool (of every pool while none is chosen), from the layouts the system offers. */
function layoutOptions(data: ProvisioningData, pool: string | undefined, n: string | undefined): FieldOptionsOf<VolumeOps> {
  const pools = data.capacity?.pools ?? [];
  const layouts = pool ? (pools.find((p) => p.name === pool)?.layouts ?? []) : pools.flatMap((p) => p.layouts);
  if (layouts.length === 0) return {};
  const ns = [...new Set(layouts.map((l) => l.n))].sort((a, b) => a - b);
  const ks = [...new Set(layouts.filter((l) => !n || String(l.n) === n).map((l) => l.k))].sort((a, b) => a - b);
  return {
    'body.N': { choices: ns.map((v) => ({ value: String(v), label: `${v} data` })) },
    'body.K': { choices: ks.map((v) => ({ value: String(v), label: `${v} parity` })) },
  };
}

function volumeOptions(data: ProvisioningData, v: Readonly<FormValuesOf<VolumeOps>>): FieldOptionsOf<VolumeOps> {
  const pools = data.capacity ? poolChoices(data.capacity) : [];
  return {
    'body.Application': { label: 'Template', required: true, choices: choices((data.templates ?? []).map((t) => t.Application)) },
    'body.Volume': { label: 'Volume name', required: true },
    'body.CapacityInBytes': { label: 'Size', required: true },
    'body.SnapshotCapacityInBytes': { label: 'Snapshot space' },
    ...(pools.length ? { 'body.Pool': { choices: pools, help: 'the system’s default pool when none is chosen' }, 'body.MetadataPool': { choices: pools } } : {}),
    'body.SectorSize': { choices: SECTOR_SIZES },
    'body.Cgid': { label: 'Consistency group', help: 'volumes with the same group are snapshotted together' },
    ...layoutOptions(data, v['body.Pool'], v['body.N']),
  };
}

const VOLUME_FIELDS = ['body.Volume', 'body.CapacityInBytes', 'body.SnapshotCapacityInBytes', 'body.Pool', 'body.N', 'body.K', 'body.SectorSize', 'body.Cgid'] as const satisfies readonly FieldId<VolumeOps>[];

/** A volume template added to `template`, or to a template chosen in the form when none is given. */
export function addVolumeTemplateAction(data: ProvisioningData, template?: string, initialTemplate?: string): FormAction {
  return {
    kind: 'form',
    title: template ? `Add a volume to ${template}` : 'Add a volume to a template',
    op: 'POST /templates/volumes/create',
    ...(template ? { fixed: { 'body.Application': template } } : {}),
    show: template ? VOLUME_FIELDS : ['body.Application', ...VOLUME_FIELDS],
    ...(!template && initialTemplate ? { initial: { 'body.Application': initialTemplate } } : {}),
    more: true,
    options: (v) => volumeOptions(data, v),
    submitLabel: 'Add volume template',
  };
}

export function editVolumeTemplateAction(data: ProvisioningData, t: Template, v: TemplateVolume): FormAction {
  return {
    kind: 'form',
    title: `Edit volume template ${t.Application}/${v.Volume}`,
    op: 'PUT /templates/volumes/edit',
    fixed: { 'query.application': t.Application ?? '', 'query.volume': v.Volume ?? '' },
    show: VOLUME_FIELDS,
    more: true,
    initial: {
      'body.Volume': v.Volume ?? '',
      'body.CapacityInBytes': v.CapacityInBytes === undefined ? '' : sizeInput(v.CapacityInBytes),
      'body.SnapshotCapacityInBytes': v.SnapshotCapacityInBytes === undefined ? '' : sizeInput(v.SnapshotCapacityInBytes),
      'body.Pool': v.Pool ?? '',
      'body.N': String(v.N ?? ''),
      'body.K': String(v.K ?? ''),
      'body.SectorSize': v.SectorSize ?? '',
      'body.Cgid': v.Cgid === undefined ? '' : String(v.Cgid),
    },
    options: (values) => ({ ...volumeOptions(data, values), 'body.Volume': { label: 'Volume name (rename)' }, 'body.CapacityInBytes': { label: 'Size' } }),
    submitLabel: 'Save volume template',
  };
}

/** An application created from a template: its volumes are allocated in their pools now. */
export function createApplicationAction(data: ProvisioningData, template?: string): FormAction {
  return {
    kind: 'form',
    title: 'Create application',
    op: 'POST /applications/create',
    show: ['body.Application', 'body.Template', 'body.Description'],
    ...(template ? { initial: { 'body.Template': template } } : {}),
    options: {
      'body.Application': { label: 'Name', required: true },
      'body.Template': { label: 'From template', choices: choices((data.templates ?? []).map((t) => t.Application)), help: 'its volumes and groups are created with it' },
    },
    submitLabel: 'Create application',
  };
}

export const HOST_FIELDS = ['body.Name', 'body.Wwns', 'body.Iqn', 'body.Nqn', 'body.Ip', 'body.ChapSecret'] as const satisfies readonly FieldId<HostOps>[];
export const HOST_OPTIONS: FieldOptionsOf<HostOps> = {
  'body.Name': { required: true, label: 'Name', help: '1–64 letters, digits, . _ -' },
  'body.Wwns': { label: 'FC WWNs', placeholder: '10:00:00:90:fa:12:34:56' },
  'body.Iqn': { label: 'iSCSI IQN', placeholder: 'iqn.1994-05.com.redhat:host01' },
  'body.Nqn': { label: 'NVMe NQN', placeholder: 'nqn.2014-08.org.nvmexpress:uuid:…' },
  'body.Ip': { label: 'IP address' },
  'body.ChapSecret': { label: 'CHAP secret', help: 'sent once, never shown again' },
};

export function createHostAction(): FormAction {
  return { kind: 'form', title: 'Create host', op: 'POST /hosts/create', show: HOST_FIELDS, options: HOST_OPTIONS, submitLabel: 'Create host' };
}

export function editHostAction(h: Host): FormAction {
  return {
    kind: 'form',
    title: `Edit host ${h.Name}`,
    op: 'PUT /hosts/edit',
    show: HOST_FIELDS,
    options: { ...HOST_OPTIONS, 'body.Name': { label: 'Name (rename)' } },
    fixed: { 'query.name': h.Name ?? '' },
    initial: { 'body.Name': h.Name ?? '', 'body.Wwns': lines(h.Wwns), 'body.Iqn': h.Iqn ?? '', 'body.Nqn': h.Nqn ?? '', 'body.Ip': h.Ip ?? '' },
    submitLabel: 'Save host',
  };
}

/** LUN ids, when given, pair with the volumes one to one. */
export function oneLunPerVolume(req: OpRequest): ProblemsOf<MappingOps> {
  const luns = req.body?.LunIds as unknown[] | undefined;
  const vols = req.body?.Volumes as unknown[] | undefined;
  if (!luns?.length) return {};
  if (!vols?.length) return { 'body.LunIds': ['choose the volumes the LUN ids are for'] };
  if (luns.length !== vols.length) return { 'body.LunIds': [`give one LUN id per volume: ${vols.length} volume(s), ${luns.length} LUN id(s)`] };
  return new Set(luns).size === luns.length ? {} : { 'body.LunIds': ['the same LUN id appears twice'] };
}

/** Volumes mapped to hosts; `host` and `application` preselect what the admin came from. */
export function mapVolumesAction(data: ProvisioningData, preset: { host?: string | undefined; application?: string | undefined } = {}): FormAction {
  const initial: FormValuesOf<'POST /hosts/mappings/add'> = { ...(preset.host ? { 'body.Hosts': preset.host } : {}), ...(preset.application ? { 'body.Application': preset.application } : {}) };
  return {
    kind: 'form',
    title: preset.host ? `Map volumes to ${preset.host}` : 'Map volumes to hosts',
    op: 'POST /hosts/mappings/add',
    show: ['body.Application', 'body.Hosts', 'body.Volumes', 'body.LunIds'],
    initial,
    options: (v: Readonly<FormValuesOf<'POST /hosts/mappings/add'>>) => ({
      'body.Application': { required: true, choices: choices((data.applications ?? []).map((a) => a.Application)) },
      'body.Hosts': { required: true, choices: choices((data.hosts ?? []).map((h) => h.Name)) },
      'body.Volumes': { choices: choices(volumesOf(data.applications ?? [], v['body.Application'])), help: 'none chosen: every volume of the application' },
      'body.LunIds': { label: 'LUN ids', help: 'optional; one per chosen volume, in the order above' },
    }),
    validate: oneLunPerVolume,
    submitLabel: 'Map',
  };
}

/**
 * An application's volumes mapped to hosts, from the application's side (`/applications/mappings/add`):
 * the application is the one the admin is looking at.
 */
export function mapApplicationAction(data: ProvisioningData, application: string): FormAction {
  return {
    kind: 'form',
    title: `Map volumes of ${application} to hosts`,
    op: 'POST /applications/mappings/add',
    fixed: { 'body.Application': application },
    show: ['body.Hosts', 'body.Volumes', 'body.LunIds'],
    options: {
      'body.Hosts': { required: true, choices: choices((data.hosts ?? []).map((h) => h.Name)) },
      'body.Volumes': { choices: choices(volumesOf(data.applications ?? [], application)), help: 'none chosen: every volume of the application' },
      'body.LunIds': { label: 'LUN ids', help: 'optional; one per chosen volume, in the order above' },
    },
    validate: oneLunPerVolume,
    submitLabel: 'Map',
  };
}

/** Hosts cut off from an application's volumes (`/applications/mappings/delete`): only what is mapped is offered. */
export function unmapApplicationAction(app: Application): FormAction {
  const application = app.Application ?? '';
  const mapped = (app.Volumes ?? []).filter((v) => (v.Mapping ?? []).length > 0);
  return {
    kind: 'form',
    title: `Unmap volumes of ${application}`,
    op: 'DELETE /applications/mappings/delete',
    fixed: { 'query.application': application },
    show: ['query.hosts', 'query.volumes'],
    options: {
      'query.hosts': { label: 'Hosts', required: true, choices: choices(mapped.flatMap((v) => (v.Mapping ?? []).map((m) => m.Host))) },
      'query.volumes': { label: 'Volumes', choices: choices(mapped.map((v) => v.Volume)), help: 'none chosen: every volume of the application' },
    },
    note: 'The hosts chosen lose access to these volumes at once.',
    submitLabel: 'Unmap',
  };
}
