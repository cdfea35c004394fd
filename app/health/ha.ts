import type { Node } from '../catalog/resources.js';
import { worst, type Level } from './level.js';
import { classifyState, stateLevelOf } from './states.js';

/** High availability of one system, from its node list. */
export interface HaSummary {
  level: Level;
  /** One word for pills: `normal`, `taken over`, `degraded`, `not reported`. */
  label: 'normal' | 'taken over' | 'degraded' | 'not reported';
  /** What an admin reads: `tundra-01-n2 taken over by tundra-01-n1`. */
  text: string;
  /** Nodes whose services a partner runs. */
  takenOver: string[];
  /** Nodes running a partner's services. */
  takingOver: string[];
  /** Nodes not running, taken over or not. */
  down: string[];
}

const isRunning = (n: Node): boolean => stateLevelOf('node', n.State) === 'ok';
/** The node's services run on its partner. */
export const isTakenOver = (n: Node): boolean => /^taken\s*-?over$/i.test(n.HAState ?? '');
const isTakingOver = (n: Node): boolean => /^takeover\s*-?active$/i.test(n.HAState ?? '');
const isNormal = (n: Node): boolean => stateLevelOf('ha', n.HAState) === 'ok';

/**
 * The HA state of a system: normal; taken over (a node's services run on its partner, so one more
 * failure stops them); degraded (a node down, or an HA state this app does not know, named as is).
 * The interface shows "Unknown" as its sample HA state, so Unknown on running nodes is not a fault.
 */
export function haOf(nodes: readonly Node[] | undefined): HaSummary {
  const list = nodes ?? [];
  if (list.length === 0) return { level: 'unknown', label: 'not reported', text: 'no node list cached', takenOver: [], takingOver: [], down: [] };
  const name = (n: Node): string => n.Name ?? `node ${n.Id ?? '?'}`;
  const takenOver = list.filter(isTakenOver).map(name);
  const takingOver = list.filter(isTakingOver).map(name);
  const down = list.filter((n) => !isRunning(n)).map(name);
  const odd = list.filter((n) => !isNormal(n) && !isTakenOver(n) && !isTakingOver(n));
  if (takenOver.length > 0) {
    const by = takingOver.length ? ` by ${takingOver.join(', ')}` : '';
    return { level: 'critical', label: 'taken over', text: `${takenOver.join(', ')} taken over${by}`, takenOver, takingOver, down };
  }
  if (down.length > 0 || odd.length > 0) {
    const downLevels = list.filter((n) => !isRunning(n)).map((n) => classifyState('node', n.State)?.level ?? 'ok');
    const oddLevels = odd.map((n) => classifyState('ha', n.HAState)?.level ?? 'ok');
    const parts = [
      ...list.filter((n) => !isRunning(n)).map((n) => (classifyState('node', n.State)?.understood ? `${name(n)} ${String(n.State).toLowerCase()}` : `${name(n)} state “${n.State}” not understood`)),
      ...odd.map((n) => `${name(n)} HA state ${n.HAState}`),
    ];
    return { level: worst([...downLevels, ...oddLevels]), label: 'degraded', text: parts.join(', '), takenOver, takingOver, down };
  }
  return { level: 'ok', label: 'normal', text: `${list.length} node${list.length === 1 ? '' : 's'} normal`, takenOver, takingOver, down };
}

/**
 * The HA partner of a node: the node running its services when it is taken over, else, in a
 * two-node system, the other node. Undefined when the app cannot tell (the interface does not say
 * how larger systems pair their nodes).
 */
export function partnerOf(nodes: readonly Node[], node: string): Node | undefined {
  const self = nodes.find((n) => n.Name === node);
  if (!self) return undefined;
  if (isTakenOver(self)) {
    const active = nodes.filter((n) => n !== self && isTakingOver(n));
    if (active.length === 1) return active[0];
  }
  return nodes.length === 2 ? nodes.find((n) => n !== self) : undefined;
}

/** Whether taking a node over makes sense now, and why not. */
export function takeoverBlocked(nodes: readonly Node[], node: string): string | undefined {
  const self = nodes.find((n) => n.Name === node);
  if (!self) return 'the node is not in the cached node list';
  if (isTakenOver(self)) return `${node} is already taken over`;
  if (isTakingOver(self)) return `${node} is running its partner's services; give them back first`;
  if (!isRunning(self)) return `${node} is down`;
  const partner = partnerOf(nodes, node);
  if (partner && !isRunning(partner)) return `its partner ${partner.Name ?? ''} is down and cannot take over`;
  if (partner && !isNormal(partner)) return `its partner ${partner.Name ?? ''} is not in a normal HA state (${partner.HAState})`;
  return undefined;
}

/** Whether give-back makes sense now: only when some node is taken over. */
export function givebackBlocked(nodes: readonly Node[]): string | undefined {
  return nodes.some(isTakenOver) ? undefined : 'no node is taken over';
}
