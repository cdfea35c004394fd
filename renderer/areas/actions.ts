import type { BodyOf, OperationKey, OperationKeys, QueryOf } from '../../app/catalog/index.js';
import type { FieldId, FieldOptionsOf, FormValuesOf, OpRequest, ProblemsOf } from '../lib/forms/op-form.js';

/**
 * What an area's button opens: a generated form for an operation, or a typed-name confirmation of a
 * destructive one. Areas describe actions as data; `ActionHost` renders them, so every area asks,
 * confirms and reports the same way. A form for the operation `K` names only `K`'s inputs (`FieldId<K>`).
 */
export interface FormActionOf<K extends OperationKey> {
  kind: 'form';
  title: string;
  op: K;
  show?: readonly FieldId<K>[];
  more?: boolean;
  options?: FieldOptionsOf<K> | ((values: Readonly<FormValuesOf<K>>) => FieldOptionsOf<K>);
  fixed?: FormValuesOf<K>;
  initial?: FormValuesOf<K>;
  submitLabel?: string;
  validate?: (request: OpRequest) => ProblemsOf<K>;
  /** A sentence on what the action does, shown above the form. */
  note?: string;
  /** Runs after a successful send, with the request sent (a rename needs the new name). */
  after?: (request: OpRequest, result: unknown) => void | Promise<void>;
}

/** A form of any operation, told apart by `op` (so a literal's field ids are checked against its operation). */
export type FormAction = { [K in OperationKey]: FormActionOf<K> }[OperationKey];

/**
 * A form whose operation is chosen at run time (a target kind's, a workflow step's). Its field ids
 * were checked where they were declared, against their own operation (`TargetKind<A, E>`); here
 * only against the catalog's ids, which is why this is the one place such a form is let through.
 */
export function formOf(action: FormActionOf<OperationKey>): FormAction {
  return action as FormAction;
}

/** Any operation's form, for the host that renders it (its ids were checked where it was made). */
export function anyForm(action: FormAction): FormActionOf<OperationKey> {
  return action;
}

/** A confirmation of the operation `K`: its query and body are those `K` declares. */
export interface ConfirmActionOf<K extends OperationKey> {
  kind: 'confirm';
  title: string;
  /** What happens, in words, shown above the name field. */
  message: string;
  /** What the admin types to confirm (the object's name). */
  name: string;
  actionLabel: string;
  op: K;
  query?: QueryOf<K>;
  body?: BodyOf<K>;
}

/** A confirmation of any operation, told apart by `op` (so a literal is checked against its operation). */
export type ConfirmAction = { [K in OperationKey]: ConfirmActionOf<K> }[OperationKey];

export type AreaAction = FormAction | ConfirmAction;

/** The last action's outcome, as an area shows it. */
export interface Notice {
  text: string;
  error?: boolean;
}

/**
 * The edit form of an application or a template, which the interface edits alike: selected by
 * `application`, with a new name and a description.
 */
export function editNameAndDescription(
  what: 'application' | 'template',
  op: OperationKeys<'PUT /applications/edit' | 'PUT /templates/edit'>,
  item: { Application?: string | null; Description?: string | null },
): FormAction {
  return {
    kind: 'form',
    title: `Edit ${what} ${item.Application ?? ''}`,
    op,
    fixed: { 'query.application': item.Application ?? '' },
    show: ['body.Application', 'body.Description'],
    initial: { 'body.Application': item.Application ?? '', 'body.Description': item.Description ?? '' },
    options: { 'body.Application': { label: 'Name (rename)' } },
    submitLabel: 'Save',
  };
}
