import type { SiteView, SystemStatusView } from '../../app/ipc/contract.js';
import { compareText } from './format.js';
import { stateLook } from './states.js';

/**
 * The fleet tree as data: grouping, filtering, flattening to visible rows and keyboard movement.
 * Pure, so the component stays a thin renderer and the rules are tested without a DOM.
 */

export type GroupBy = 'site' | 'group' | 'tag';

export interface TreeNode {
  /** Unique in the tree (a site under two tags gets two ids). */
  id: string;
  label: string;
  kind: 'group' | 'site' | 'system' | 'area';
  children?: TreeNode[];
  /**
   * How many children the node has, where they are made only when first read (a system's areas:
   * 19 per system, 19,000 nodes for the first frame of 1,000 systems, where only an opened system
   * shows them).
   */
  count?: number;
  siteId?: string;
  system?: string;
  areaId?: string;
  status?: SystemStatusView;
  /** A site-level problem to show on the site row. */
  note?: string;
}

export interface TreeArea {
  id: string;
  title: string;
}

export interface TreeInput {
  sites: readonly SiteView[];
  statuses: readonly SystemStatusView[];
  siteErrors: ReadonlyMap<string, string>;
  areas: readonly TreeArea[];
  groupBy: GroupBy;
  filter: string;
}

/**
 * Each system's filter text, made once per status and site object (both are replaced, never
 * changed, when they change): a keystroke in the filter of a 1,000-system tree then only compares
 * strings, instead of parsing 1,000 addresses and lowercasing their text again.
 */
const haystacks = new WeakMap<SystemStatusView, { site: SiteView | undefined; text: string }>();

/** Text a filter matches for a system: its name, its site's name, host, group, tags and state. */
function haystack(site: SiteView | undefined, s: SystemStatusView): string {
  const known = haystacks.get(s);
  if (known && known.site === site) return known.text;
  let host = '';
  try {
    host = site ? new URL(site.baseUrl).host : '';
  } catch {
    host = site?.baseUrl ?? '';
  }
  const text = [s.system, site?.name ?? s.siteId, host, site?.group ?? '', ...(site?.tags ?? []), stateLook(s.state).label].join('\n').toLowerCase();
  haystacks.set(s, { site, text });
  return text;
}

/**
 * A system's node. Its 19 area children are made when first read: 19,000 nodes for the first frame
 * of 1,000 systems, where only an opened system shows them. A class, so the first frame's 1,000
 * nodes share one shape and one getter (an object literal with its own getter each was a slow
 * object per system).
 */
class SystemNode implements TreeNode {
  readonly kind = 'system' as const;
  readonly label: string;
  readonly siteId: string;
  readonly system: string;
  readonly count: number;
  #children: TreeNode[] | undefined;

  constructor(
    readonly id: string,
    readonly status: SystemStatusView,
    readonly areas: readonly TreeArea[],
  ) {
    this.label = status.system;
    this.siteId = status.siteId;
    this.system = status.system;
    this.count = areas.length;
  }

  get children(): TreeNode[] {
    const { id, siteId, system } = this;
    return (this.#children ??= this.areas.map((a) => ({ id: `${id}/area:${a.id}`, label: a.title, kind: 'area' as const, siteId, system, areaId: a.id })));
  }
}

/**
 * System nodes kept per status object (its first node, and any under other ids: a site under two
 * tags), for the same area list: filtering builds no new system nodes, so the rows it keeps showing
 * are the same objects and their rendered rows are kept as they are.
 */
const systemNodes = new WeakMap<SystemStatusView, { node: SystemNode; others?: Map<string, SystemNode> }>();

function systemNode(siteNodeId: string, s: SystemStatusView, areas: readonly TreeArea[]): TreeNode {
  const id = `${siteNodeId}/sys:${s.system}`;
  const known = systemNodes.get(s);
  if (!known || known.node.areas !== areas) {
    const node = new SystemNode(id, s, areas);
    systemNodes.set(s, { node });
    return node;
  }
  if (known.node.id === id) return known.node;
  known.others ??= new Map();
  let node = known.others.get(id);
  if (!node) known.others.set(id, (node = new SystemNode(id, s, areas)));
  return node;
}

function siteNode(prefix: string, site: SiteView, systems: readonly SystemStatusView[], input: TreeInput): TreeNode {
  const id = `${prefix}site:${site.id}`;
  return {
    id,
    label: site.name,
    kind: 'site',
    siteId: site.id,
    ...(input.siteErrors.get(site.id) ? { note: input.siteErrors.get(site.id) } : site.polling.paused ? { note: 'paused' } : {}),
    children: systems.map((s) => systemNode(id, s, input.areas)),
  };
}

/** Builds the tree: sites → systems → areas, optionally under group or tag headings. */
export function buildTree(input: TreeInput): TreeNode[] {
  const q = input.filter.trim().toLowerCase();
  const bySite = new Map<string, SystemStatusView[]>();
  for (const s of input.statuses) {
    const list = bySite.get(s.siteId) ?? [];
    list.push(s);
    bySite.set(s.siteId, list);
  }
  const sites = [...input.sites].sort((a, b) => compareText(a.name, b.name));
  const visibleSystems = (site: SiteView): SystemStatusView[] => {
    const all = (bySite.get(site.id) ?? []).slice().sort((a, b) => compareText(a.system, b.system));
    return q ? all.filter((s) => haystack(site, s).includes(q)) : all;
  };
  // With a filter, a site shows when its own name matches (with all its systems) or any system does.
  const siteSystems = (site: SiteView): SystemStatusView[] | undefined => {
    const matching = visibleSystems(site);
    if (!q || matching.length > 0) return matching;
    const own = [site.name, site.group ?? '', ...site.tags].join('\n').toLowerCase();
    return own.includes(q) ? (bySite.get(site.id) ?? []).slice().sort((a, b) => compareText(a.system, b.system)) : undefined;
  };

  if (input.groupBy === 'site') {
    return sites.flatMap((site) => {
      const systems = siteSystems(site);
      return systems ? [siteNode('', site, systems, input)] : [];
    });
  }
  const groups = new Map<string, SiteView[]>();
  for (const site of sites) {
    const names = input.groupBy === 'group' ? [site.group || 'Ungrouped'] : site.tags.length > 0 ? site.tags : ['Untagged'];
    for (const name of names) groups.set(name, [...(groups.get(name) ?? []), site]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .flatMap(([name, members]) => {
      const prefix = `group:${name}/`;
      const children = members.flatMap((site) => {
        const systems = siteSystems(site);
        return systems ? [siteNode(prefix, site, systems, input)] : [];
      });
      return children.length > 0 ? [{ id: `group:${name}`, label: name, kind: 'group' as const, children }] : [];
    });
}

/** A visible row of the tree with the ARIA position facts of its node. */
export interface TreeRow {
  node: TreeNode;
  level: number;
  posinset: number;
  setsize: number;
  parentId: string | undefined;
  expandable: boolean;
  expanded: boolean;
}

/** The rows a user sees: nodes whose ancestors are all expanded, in display order. */
export function visibleRows(nodes: readonly TreeNode[], isExpanded: (node: TreeNode) => boolean): TreeRow[] {
  const out: TreeRow[] = [];
  const walk = (list: readonly TreeNode[], level: number, parentId: string | undefined): void => {
    list.forEach((node, i) => {
      const expandable = (node.count ?? node.children?.length ?? 0) > 0;
      const expanded = expandable && isExpanded(node);
      out.push({ node, level, posinset: i + 1, setsize: list.length, parentId, expandable, expanded });
      if (expanded) walk(node.children ?? [], level + 1, node.id);
    });
  };
  walk(nodes, 1, undefined);
  return out;
}

/** What a key does in the tree (WAI-ARIA tree view pattern). */
export type TreeAction =
  | { type: 'focus'; id: string }
  | { type: 'expand'; id: string }
  | { type: 'collapse'; id: string }
  | { type: 'activate'; id: string }
  | { type: 'none' };

export function treeKeyAction(rows: readonly TreeRow[], focusedId: string | undefined, key: string): TreeAction {
  if (rows.length === 0) return { type: 'none' };
  const i = Math.max(0, rows.findIndex((r) => r.node.id === focusedId));
  const row = rows[i] as TreeRow;
  const at = (j: number): TreeAction => ({ type: 'focus', id: (rows[Math.min(rows.length - 1, Math.max(0, j))] as TreeRow).node.id });
  switch (key) {
    case 'ArrowDown':
      return at(i + 1);
    case 'ArrowUp':
      return at(i - 1);
    case 'Home':
      return at(0);
    case 'End':
      return at(rows.length - 1);
    case 'ArrowRight':
      if (row.expandable && !row.expanded) return { type: 'expand', id: row.node.id };
      if (row.expanded) return at(i + 1);
      return { type: 'none' };
    case 'ArrowLeft':
      if (row.expanded) return { type: 'collapse', id: row.node.id };
      return row.parentId ? { type: 'focus', id: row.parentId } : { type: 'none' };
    case 'Enter':
    case ' ':
      return { type: 'activate', id: row.node.id };
    default:
      return { type: 'none' };
  }
}
