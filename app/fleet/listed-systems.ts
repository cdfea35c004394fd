import type { SystemsList } from '../catalog/index.js';

/** A system the site lists but Fleetdeck cannot read, under the name it is shown by, and why. */
export interface UnreadableSystem {
  readonly system: string;
  readonly why: string;
}

/**
 * The systems of a site's list that Fleetdeck can read, and those it cannot. Systems are chosen
 * (`GET /systems/select`), cached and shown by name, so a system listed without a name, or under a
 * name the list gives more than one system, cannot be told apart from the others: it is shown as
 * not read, with why, never dropped from view or merged with another. A system without a name is
 * shown as `system #<Id>` (or its place in the list when it has no id either); a name listed twice
 * is shown once, for all the systems that bear it.
 */
export function listedSystems(list: Pick<SystemsList, 'Systems'>): { readable: string[]; unreadable: UnreadableSystem[] } {
  const byName = new Map<string, unknown[]>();
  const unreadable: UnreadableSystem[] = [];
  (list.Systems ?? []).forEach((s, i) => {
    const name = typeof s.Name === 'string' ? s.Name : '';
    if (name.trim() === '') {
      const id = s.Id === undefined || s.Id === null ? undefined : String(s.Id);
      unreadable.push({
        system: id === undefined ? `system ${i + 1} of the list` : `system #${id}`,
        why: `the site lists a system without a name${id === undefined ? '' : ` (Id ${id})`}; Fleetdeck chooses systems by name, so it was not read: name it on the system`,
      });
      return;
    }
    byName.set(name, [...(byName.get(name) ?? []), s.Id]);
  });
  const readable: string[] = [];
  for (const [name, ids] of byName) {
    if (ids.length === 1) {
      readable.push(name);
      continue;
    }
    const known = ids.filter((id) => id !== undefined && id !== null).map(String);
    unreadable.push({
      system: name,
      why: `the site lists ${ids.length} systems named "${name}"${known.length ? ` (Ids ${known.join(', ')})` : ''}; Fleetdeck chooses systems by name and cannot tell which one answers, so none of them was read: rename all but one`,
    });
  }
  return { readable, unreadable };
}
