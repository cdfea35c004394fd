import type { PolicyView } from '../../app/policy/machine-policy.js';

/**
 * The machine policy as main reported it (`app:info`): whether this workstation is read-only, and
 * what the organisation manages. One state for the whole window, so every write button can say why
 * it does nothing without being handed the fleet.
 */
class ManagedPolicy {
  view: PolicyView | undefined = $state();

  /** Why every write is refused (read-only workstation), or undefined. */
  get readOnly(): string | undefined {
    return this.view?.readOnly;
  }

  /** Why a site cannot be edited or removed here: the workstation is read-only, or the site is managed. */
  siteLocked(site: { managed?: boolean | undefined }): string | undefined {
    if (this.readOnly) return this.readOnly;
    return site.managed ? 'managed by your organisation (machine policy): ask IT to change it' : undefined;
  }
}

export const managedPolicy = new ManagedPolicy();
