import type { OperationKey, OperationKeys } from '../../../app/catalog/index.js';
import type { FieldId, FieldOptionsOf } from '../../lib/forms/op-form.js';
import { LEVEL_NAMES } from '../../lib/levels.js';

/**
 * The notification target kinds and their operations. The interface leaves the numeric `Type` of a
 * target unshown; these numbers are the ones its systems (and the simulator) report, and a number
 * not listed here is shown as is.
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
    label: 'E-mail',
    add: 'POST /notifications/targets/email/add',
    edit: 'PUT /notifications/targets/email/edit',
    addFields: ['body.Name', 'body.Email', ...BATCH, 'body.HideForCustomers', 'body.Force'],
    editFields: ['body.NewName', 'body.Address', ...BATCH, 'body.HideForCustomers', 'body.ShowForCustomers', 'body.Force'],
  }),
  targetKind({
    id: 'logserver',
    type: 1,
    label: 'Log server',
    add: 'POST /notifications/targets/logserver/add',
    edit: 'PUT /notifications/targets/logserver/edit',
    addFields: ['body.Name', 'body.ServerUrl', ...BATCH, 'body.Force'],
    editFields: ['body.NewName', 'body.ServerUrl', ...BATCH, 'body.Force'],
  }),
  targetKind({
    id: 'chathook',
    type: 2,
    label: 'Chat webhook',
    add: 'POST /notifications/targets/chathook/add',
    edit: 'PUT /notifications/targets/chathook/edit',
    addFields: ['body.Name', 'body.WebhookUrl', ...BATCH, 'body.Force'],
    editFields: ['body.NewName', 'body.WebhookUrl', ...BATCH, 'body.Force'],
  }),
  targetKind({
    id: 'snmp',
    type: 3,
    label: 'SNMP',
    add: 'POST /notifications/targets/snmp/add',
    edit: 'PUT /notifications/targets/snmp/edit',
    addFields: ['body.Name', 'body.Ip', 'body.ManagerPort', 'body.TrapVersion', 'body.CommunityString', 'body.V3Username', 'body.V3AuthPhrase', 'body.V3PrivacyPhrase', 'body.V3Context', 'body.MinLevel', 'body.Modules', 'body.Force'],
    editFields: ['body.NewName', 'body.ManagerAddress', 'body.ManagerPort', 'body.TrapVersion', 'body.CommunityString', 'body.V3Username', 'body.V3AuthPhrase', 'body.V3PrivacyPhrase', 'body.V3Context', 'body.MinLevel', 'body.Modules', 'body.Force'],
  }),
  targetKind({
    id: 'syslog',
    type: 4,
    label: 'Syslog',
    add: 'POST /notifications/targets/syslog/add',
    edit: 'PUT /notifications/targets/syslog/edit',
    addFields: ['body.Name', 'body.ServerAddress', 'body.ServerPort', 'body.ConnectionType', 'body.SslProtocol', ...BATCH, 'body.Force'],
    editFields: ['body.NewName', 'body.ServerAddress', 'body.ServerPort', 'body.ConnectionType', 'body.SslProtocol', ...BATCH, 'body.Force'],
  }),
  targetKind({ id: 'remote_support', type: 5, label: 'Remote support', add: 'POST /notifications/targets/remote_support/add', addFields: [], editFields: [] }),
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
    'body.TrapVersion': { label: 'SNMP version', choices: [{ value: 'v1' }, { value: 'v2c' }, { value: 'v3' }], help: 'v1/v2c need the community string; v3 the user and phrases' },
    'body.CommunityString': { label: 'Community string' },
    'body.V3AuthPhrase': { label: 'v3 auth phrase' },
    'body.V3PrivacyPhrase': { label: 'v3 privacy phrase' },
    'body.ServerAddress': { required: true, label: 'Server address' },
    'body.ServerPort': { placeholder: '514' },
    'body.ConnectionType': { choices: [{ value: 'Udp', label: 'UDP' }, { value: 'Tcp', label: 'TCP' }, { value: 'Tls', label: 'TLS (encrypted TCP)' }] },
    'body.SslProtocol': { choices: [{ value: 'Tls12', label: 'TLS 1.2' }, { value: 'Tls13', label: 'TLS 1.3' }], help: 'with the TLS transport only' },
    'body.MinLevel': { label: 'Minimum level', choices: LEVEL_NAMES.map((value) => ({ value })) },
    'body.Modules': { choices: modules.map((value) => ({ value })), help: 'none chosen: every module' },
    'body.BatchPostingLimit': { label: 'Batch limit', help: 'records per batch' },
    'body.BatchPostingPeriod': { label: 'Batch period', help: 'seconds between batches' },
    'body.NewName': { label: 'New name' },
    'body.HideForCustomers': { checkbox: true, label: 'Hide from customers' },
    'body.ShowForCustomers': { checkbox: true, label: 'Show to customers' },
    'body.Force': { checkbox: true, label: 'Skip the system’s approval prompt' },
  };
}
