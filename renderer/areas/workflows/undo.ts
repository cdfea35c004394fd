import type { OperationKey, QueryOf } from '../../../app/catalog/index.js';
import type { OpRequest } from '../../lib/forms/op-form.js';

/**
 * What a provisioning workflow created in this window, and how to remove it again: the deletions in
 * the reverse order of creation (mappings, hosts, applications with their volumes, templates with
 * their volume templates), so each step is allowed when its turn comes. Only what a step of the
 * workflow created is listed: a template or host that existed before is never deleted.
 */
export interface Created {
  templates: string[];
  applications: string[];
  hosts: string[];
  /** Each mapping as it was sent: no volumes means every volume of the application. */
  mappings: Array<{ application: string; hosts: string[]; volumes: string[] }>;
}

export const NOTHING_CREATED: Created = { templates: [], applications: [], hosts: [], mappings: [] };

/** One deletion of the plan: its operation and query, what it does in words, and the object it names. */
export type UndoStep = { [K in OperationKey]: { op: K; query: QueryOf<K>; text: string; name: string } }[OperationKey];

/** What each system's workflow steps created, kept for the window's life: Undo is still offered after the admin looks elsewhere. */
const createdBySystem = new Map<string, Created>();

/** What the workflow steps created on a system in this window. */
export function createdOn(siteId: string, system: string): Created {
  return createdBySystem.get(JSON.stringify([siteId, system])) ?? NOTHING_CREATED;
}

/** Keeps what the workflow steps created on a system (nothing: forgets it). */
export function keepCreated(siteId: string, system: string, c: Created): void {
  const key = JSON.stringify([siteId, system]);
  if (undoPlan(c).length) createdBySystem.set(key, c);
  else createdBySystem.delete(key);
}

/** Adds what a successful workflow step created. */
export function recordCreated(c: Created, op: OperationKey, req: OpRequest): Created {
  const body = req.body ?? {};
  const text = (k: string): string | undefined => (typeof body[k] === 'string' && body[k] !== '' ? (body[k] as string) : undefined);
  const list = (k: string): string[] => (Array.isArray(body[k]) ? (body[k] as unknown[]).filter((v): v is string => typeof v === 'string' && v !== '') : []);
  const add = (names: string[], name: string | undefined): string[] => (name && !names.includes(name) ? [...names, name] : names);
  switch (op) {
    case 'POST /templates/create':
      return { ...c, templates: add(c.templates, text('Application')) };
    case 'POST /applications/create':
      return { ...c, applications: add(c.applications, text('Application')) };
    case 'POST /hosts/create':
      return { ...c, hosts: add(c.hosts, text('Name')) };
    case 'POST /hosts/mappings/add': {
      const application = text('Application');
      const hosts = list('Hosts');
      return application && hosts.length ? { ...c, mappings: [...c.mappings, { application, hosts, volumes: list('Volumes') }] } : c;
    }
    default:
      return c;
  }
}

/** The deletions that remove everything in `c`, in the order they must run. */
export function undoPlan(c: Created): UndoStep[] {
  const steps: UndoStep[] = [];
  for (const m of [...c.mappings].reverse()) steps.push(unmapStep(m));
  for (const name of [...c.hosts].reverse()) steps.push({ op: 'DELETE /hosts/delete', query: { name }, text: `Delete host ${name}`, name });
  for (const application of [...c.applications].reverse()) {
    steps.push({ op: 'DELETE /applications/delete', query: { application }, text: `Delete application ${application} with its volumes, consistency groups and snapshots`, name: application });
  }
  for (const name of [...c.templates].reverse()) steps.push({ op: 'DELETE /templates/delete', query: { name }, text: `Delete template ${name} with its volume templates`, name });
  return steps;
}

/** What remains created once the given steps of a plan have run. */
export function withoutUndone(c: Created, done: readonly UndoStep[]): Created {
  const gone = (op: OperationKey, name: string): boolean => done.some((s) => s.op === op && s.name === name);
  return {
    templates: c.templates.filter((n) => !gone('DELETE /templates/delete', n)),
    applications: c.applications.filter((n) => !gone('DELETE /applications/delete', n)),
    hosts: c.hosts.filter((n) => !gone('DELETE /hosts/delete', n)),
    mappings: c.mappings.filter((m) => !done.some((s) => s.text === unmapStep(m).text)),
  };
}

function unmapStep(m: Created['mappings'][number]): UndoStep {
  const what = m.volumes.length ? `volume${m.volumes.length > 1 ? 's' : ''} ${m.volumes.join(', ')} of ${m.application}` : `every volume of ${m.application}`;
  return {
    op: 'DELETE /hosts/mappings/delete',
    query: { application: m.application, hosts: m.hosts, ...(m.volumes.length ? { volumes: m.volumes } : {}) },
    text: `Unmap ${what} from ${m.hosts.join(', ')}`,
    name: m.application,
  };
}
