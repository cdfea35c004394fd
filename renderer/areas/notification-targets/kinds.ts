import type { OperationKey, OperationKeys } from '../../../app/catalog/index.js';
import type { FieldId, FieldOptionsOf } from '../../lib/forms/op-form.js';
import { TARGET_TYPE_NAMES } from '../../../app/catalog/values.js';

/**
 * The notification target kinds and their operations. The interface leaves the numeric `Type` of a
 * target unshown; these numbers are the ones its systems (and the simulator) report, named in
 * `TARGET_TYPE_NAMES`, and a number not listed there is shown as is. Fields with a fixed set of
 * values (levels, SNMP version, transport) get their choices from the catalog (`FIELD_CHOICES`).
 */
export interface TargetKind<A extends OperationKey = OperationKey, E extends OperationKey = OperationKey> {
  id: 'email' | 'logserver' | 'chathook' | 'snmp' | 'syslog' | 'remote_support';
  type: number;
  label: string;
  add: A;
  /** Undefined for the remote support target, which has no edit operation. */
  edit?: E;
  /** Fields of the add form, in order. */
  addFields: readonly FieldId<A>[];
  editFields: readonly FieldId<E>[];
}

/** A kind whose field lists are checked against its own add and edit operations. */
function targetKind<A extends OperationKey, E extends OperationKey = never>(kind: TargetKind<A, E>): TargetKind<A, E> {
  return kind;
}

/** Every add and edit operation of a target: the field presentation below is shared by their forms. */
type TargetOps = OperationKeys<'POST /notifications/targets/email/add' | 'PUT /notifications/targets/email/edit' | 'POST /notifications/targets/logserver/add' | 'PUT /notifications/targets/logserver/edit' | 'POST /notifications/targets/chathook/add' | 'PUT /notifications/targets/chathook/edit' | 'POST /notifications/targets/snmp/add' | 'PUT /notifications/targets/snmp/edit' | 'POST /notifications/targets/syslog/add' | 'PUT /notifications/targets/syslog/edit'>;

/** The batching fields every kind but SNMP takes, on add and edit alike. */
const BATCH = ['body.MinLevel', 'body.Modules', 'body.BatchPostingLimit', 'body.BatchPostingPeriod'] as const satisfies readonly FieldId<TargetOps>[];

export const TARGET_KINDS: readonly TargetKind[] = [
  targetKind({
    id: 'email',
    type: 0,
    label: TARGET_TYPE_NAMES[0],
    add: 'POST /notifications/targets/email/add',
    edit: 'PUT /notifications/targets/email/edit',
    addFields: ['body.Name', 'body.Email', ...BATCH, 'body.HideForCustomers', 'body.Force'],
    editFields: ['body.NewName', 'body.Address', ...BATCH, 'body.HideForCustomers', 'body.ShowForCustomers', 'body.Force'],
  }),
  targetKind({
    id: 'logserver',
    type: 1,
    label: TARGET_TYPE_NAMES[1],
    add: 'POST /notifications/targets/logserver/add',
    edit: 'PUT /notifications/targets/logserver/edit',
    addFields: ['body.Name', 'body.ServerUrl', ...BATCH, 'body.Force'],
    editFields: ['body.NewName', 'body.ServerUrl', ...BATCH, 'body.Force'],
  }),
  targetKind({
    id: 'chathook',
    type: 2,
    label: TARGET_TYPE_NAMES[2],
    add: 'POST /notifications/targets/chathook/add',
    edit: 'PUT /notifications/targets/chathook/edit',
    addFields: ['body.Name', 'body.WebhookUrl', ...BATCH, 'body.Force'],
    editFields: ['body.NewName', 'body.WebhookUrl', ...BATCH, 'body.Force'],
  }),
  targetKind({
    id: 'snmp',
    type: 3,
    label: TARGET_TYPE_NAMES[3],
    add: 'POST /notifications/targets/snmp/add',
    edit: 'PUT /notifications/targets/snmp/edit',
    addFields: ['body.Name', 'body.Ip', 'body.ManagerPort', 'body.TrapVersion', 'body.CommunityString', 'body.V3Username', 'body.V3AuthPhrase', 'body.V3PrivacyPhrase', 'body.V3Context', 'body.MinLevel', 'body.Modules', 'body.Force'],
    editFields: ['body.NewName', 'body.ManagerAddress', 'body.ManagerPort', 'body.TrapVersion', 'body.CommunityString', 'body.V3Username', 'body.V3AuthPhrase', 'body.V3PrivacyPhrase', 'body.V3Context', 'body.MinLevel', 'body.Modules', 'body.Force'],
  }),
  targetKind({
    id: 'syslog',
    type: 4,
    label: TARGET_TYPE_NAMES[4],
    add: 'POST /notifications/targets/syslog/add',
    edit: 'PUT /notifications/targets/syslog/edit',
    addFields: ['body.Name', 'body.ServerAddress', 'body.ServerPort', 'body.ConnectionType', 'body.SslProtocol', ...BATCH, 'body.Force'],
    editFields: ['body.NewName', 'body.ServerAddress', 'body.ServerPort', 'body.ConnectionType', 'body.SslProtocol', ...BATCH, 'body.Force'],
  }),
  targetKind({ id: 'remote_support', type: 5, label: TARGET_TYPE_NAMES[5], add: 'POST /notifications/targets/remote_support/add', addFields: [], editFields: [] }),
];

export function kindOfType(type: number | undefined): TargetKind | undefined {
  return TARGET_KINDS.find((k) => k.type === type);
}

/** Presentation of the target fields, shared by every kind's add and edit form. */
export function targetFieldOptions(modules: readonly string[]): FieldOptionsOf<TargetOps> {
  return {
    'body.Name': { required: true },
    'body.Email': { required: true, label: 'E-mail address' },
    'body.Address': { label: 'E-mail address' },
    'body.ServerUrl': { required: true, label: 'Server URL', placeholder: 'https://logs.example.com/ingest' },
    'body.WebhookUrl': { required: true, label: 'Webhook URL', placeholder: 'https://chat.example.com/hooks/…' },
    'body.Ip': { required: true, label: 'Manager address' },
    'body.ManagerAddress': { label: 'Manager address' },
    'body.ManagerPort': { label: 'Manager port', placeholder: '162' },
    'body.TrapVersion': { label: 'SNMP version', help: 'v1/v2c need the community string; v3 the user and phrases' },
    'body.CommunityString': { label: 'Community string' },
    'body.V3AuthPhrase': { label: 'v3 auth phrase' },
    'body.V3PrivacyPhrase': { label: 'v3 privacy phrase' },
    'body.ServerAddress': { required: true, label: 'Server address' },
    'body.ServerPort': { placeholder: '514' },
    'body.SslProtocol': { help: 'with the TLS transport only' },
    'body.MinLevel': { label: 'Minimum level' },
    'body.Modules': { choices: modules.map((value) => ({ value })), help: 'none chosen: every module' },
    'body.BatchPostingLimit': { label: 'Batch limit', help: 'records per batch' },
    'body.BatchPostingPeriod': { label: 'Batch period', help: 'seconds between batches' },
    'body.NewName': { label: 'New name' },
    'body.HideForCustomers': { checkbox: true, label: 'Hide from customers' },
    'body.ShowForCustomers': { checkbox: true, label: 'Show to customers' },
    'body.Force': { checkbox: true, label: 'Skip the system’s approval prompt' },
  };
}
