import type { OperationKey } from '../../../app/catalog/index.js';
import type { FieldOptions, FieldOptionsMap } from './op-form.js';

/**
 * The roles systems of this interface use (and the simulator). The interface does not list its
 * roles, so any other name can still be typed.
 */
export const KNOWN_ROLES: readonly string[] = ['Administrator', 'Operator', 'Viewer'];

/**
 * What the interface says of a user's creation beyond its field types: users are created with a
 * name, a password, a role and an e-mail. The Users area's dialog and a bulk change of the same
 * write share it, so neither sends a request every system refuses.
 */
export function userCreateOptions(roles: readonly string[] = KNOWN_ROLES): Record<'body.Name' | 'body.Password' | 'body.Role' | 'body.Email', FieldOptions> {
  return {
    'body.Name': { required: true },
    'body.Password': { required: true, help: 'sent once; Fleetdeck keeps no copy' },
    'body.Role': { required: true, suggestions: roles },
    'body.Email': { label: 'E-mail', required: true, help: 'where two-factor and reset messages go' },
  };
}

/** The options above for an operation a bulk change may send; undefined for the others. */
export function knownFieldOptions(operation: OperationKey): FieldOptionsMap | undefined {
  const userCreate: OperationKey = 'POST /users/create';
  return operation === userCreate ? userCreateOptions() : undefined;
}
