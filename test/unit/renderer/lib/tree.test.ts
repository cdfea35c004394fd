import { describe, expect, it } from 'vitest';
import type { SiteView, SystemStatusView } from '../../../../app/ipc/contract.js';
import { buildTree, treeKeyAction, visibleRows, type TreeNode } from '../../../../renderer/lib/tree.js';

const site = (id: string, name: string, extra: Partial<SiteView> = {}): SiteView => ({
  id, name, baseUrl: `https://${id}.example`, username: 'u', tags: [], tls: { hasCaBundle: false }, allowHttp: false,
  polling: { intervalSeconds: 60, paused: false, maxInFlight: 4 }, simulated: false, ...extra,
});
const st = (siteId: string, system: string, state: SystemStatusView['state'] = 'ok'): SystemStatusView => ({ siteId, system, state });

const input = {
  sites: [site('b', 'Beta', { group: 'West', tags: ['dr', 'gold'] }), site('a', 'Alpha', { group: 'East', tags: ['prod'] })],
  statuses: [st('a', 'z-sys'), st('a', 'a-sys', 'unreachable'), st('b', 'dr-1', 'paused')],
  siteErrors: new Map<string, string>(),
  areas: [{ id: 'summary', title: 'Summary' }],
  groupBy: 'site' as const,
  filter: '',
};

const labels = (nodes: TreeNode[]): unknown => nodes.map((n) => (n.children && n.kind !== 'system' ? [n.label, labels(n.children)] : n.label));

describe('buildTree', () => {
  it('keeps both nodes of a system shown under two tags, each with its own areas', () => {
    const systemsOf = (nodes: TreeNode[]): TreeNode[] => nodes.flatMap((g) => g.children ?? []).flatMap((s) => s.children ?? []).filter((n) => n.system === 'dr-1');
    const first = systemsOf(buildTree({ ...input, groupBy: 'tag' }));
    expect(first.map((n) => n.id)).toEqual(['group:dr/site:b/sys:dr-1', 'group:gold/site:b/sys:dr-1']);
    expect(first.map((n) => n.children?.map((c) => c.id))).toEqual([['group:dr/site:b/sys:dr-1/area:summary'], ['group:gold/site:b/sys:dr-1/area:summary']]);
    const bySite = buildTree(input).flatMap((s) => s.children ?? []).find((n) => n.system === 'dr-1');
    expect(bySite?.id).toBe('site:b/sys:dr-1');
    const again = systemsOf(buildTree({ ...input, groupBy: 'tag', filter: 'dr' }));
    expect(again[0]).toBe(first[0]);
    expect(again[1]).toBe(first[1]);
    expect(buildTree(input).flatMap((s) => s.children ?? []).find((n) => n.system === 'dr-1')).toBe(bySite);
  });

  it('keeps a system node across filter keystrokes, and makes a new one when its status, site or areas change', () => {
    const find = (nodes: TreeNode[], system: string): TreeNode | undefined => nodes.flatMap((n) => n.children ?? []).find((n) => n.system === system);
    const first = find(buildTree({ ...input, filter: 'z' }), 'z-sys');
    expect(find(buildTree({ ...input, filter: 'z-s' }), 'z-sys')).toBe(first);
    expect(find(buildTree(input), 'z-sys')).toBe(first);
    // A new status (a refresh ended) is a new node, with the new state's text to filter on.
    const statuses = [st('a', 'z-sys', 'unreachable'), ...input.statuses.slice(1)];
    const changed = find(buildTree({ ...input, statuses, filter: 'unreachable' }), 'z-sys');
    expect(changed).not.toBe(first);
    expect(changed?.status?.state).toBe('unreachable');
    // A renamed site is matched by its new name.
    const sites = [input.sites[0] as SiteView, site('a', 'Lyon', { group: 'East', tags: ['prod'] })];
    expect(labels(buildTree({ ...input, sites, filter: 'lyon' }))).toEqual([['Lyon', ['a-sys', 'z-sys']]]);
    expect(buildTree({ ...input, sites, filter: 'alpha' })).toEqual([]);
    // Other areas: other children.
    const areas = [{ id: 'hardware', title: 'Hardware' }];
    expect(find(buildTree({ ...input, areas }), 'z-sys')?.children?.map((c) => c.id)).toEqual(['site:a/sys:z-sys/area:hardware']);
  });

  it('sorts sites and systems by name, with areas under each system', () => {
    const tree = buildTree(input);
    expect(labels(tree)).toEqual([
      ['Alpha', ['a-sys', 'z-sys']],
      ['Beta', ['dr-1']],
    ]);
    expect(tree[0]?.children?.[0]?.children?.map((c) => c.id)).toEqual(['site:a/sys:a-sys/area:summary']);
  });

  it('shows a closed system as expandable by its area count, and lists its areas when opened, the same nodes each time', () => {
    const areas = [{ id: 'summary', title: 'Summary' }, { id: 'hardware', title: 'Hardware' }];
    const tree = buildTree({ ...input, areas });
    const closed = visibleRows(tree, (n) => n.kind !== 'system');
    const sys = closed.find((r) => r.node.system === 'a-sys');
    expect(sys).toMatchObject({ expandable: true, expanded: false });
    expect(sys?.node.count).toBe(2);
    const open = visibleRows(tree, () => true);
    const under = open.filter((r) => r.parentId === sys?.node.id);
    expect(under.map((r) => [r.node.id, r.level, r.posinset, r.setsize])).toEqual([
      ['site:a/sys:a-sys/area:summary', 3, 1, 2],
      ['site:a/sys:a-sys/area:hardware', 3, 2, 2],
    ]);
    expect(sys?.node.children?.[0]).toBe(under[0]?.node);
    // A system without areas cannot be opened.
    expect(visibleRows(buildTree({ ...input, areas: [] }), () => true).find((r) => r.node.kind === 'system')).toMatchObject({ expandable: false });
  });

  it('puts a site under each of its tags, with distinct ids', () => {
    const tree = buildTree({ ...input, groupBy: 'tag' });
    expect(tree.map((g) => g.label)).toEqual(['dr', 'gold', 'prod']);
    const ids = tree.flatMap((g) => g.children ?? []).map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('filters by state text and keeps a site whose own name matches with all its systems', () => {
    expect(labels(buildTree({ ...input, filter: 'UNREACH' }))).toEqual([['Alpha', ['a-sys']]]);
    expect(labels(buildTree({ ...input, filter: 'beta' }))).toEqual([['Beta', ['dr-1']]]);
    expect(buildTree({ ...input, filter: 'nothing-like-this' })).toEqual([]);
  });
});

describe('visibleRows and keys', () => {
  const tree = buildTree(input);
  const rows = visibleRows(tree, (n) => n.kind !== 'system');

  it('lists expanded nodes in order with ARIA positions', () => {
    expect(rows.map((r) => [r.node.label, r.level, r.posinset, r.setsize])).toEqual([
      ['Alpha', 1, 1, 2],
      ['a-sys', 2, 1, 2],
      ['z-sys', 2, 2, 2],
      ['Beta', 1, 2, 2],
      ['dr-1', 2, 1, 1],
    ]);
  });

  it('maps keys to the WAI-ARIA tree actions', () => {
    expect(treeKeyAction(rows, 'site:a', 'ArrowDown')).toEqual({ type: 'focus', id: 'site:a/sys:a-sys' });
    expect(treeKeyAction(rows, 'site:b/sys:dr-1', 'ArrowDown')).toEqual({ type: 'focus', id: 'site:b/sys:dr-1' });
    expect(treeKeyAction(rows, 'site:a', 'ArrowUp')).toEqual({ type: 'focus', id: 'site:a' });
    expect(treeKeyAction(rows, 'site:a/sys:a-sys', 'ArrowRight')).toEqual({ type: 'expand', id: 'site:a/sys:a-sys' });
    expect(treeKeyAction(rows, 'site:a', 'ArrowRight')).toEqual({ type: 'focus', id: 'site:a/sys:a-sys' });
    expect(treeKeyAction(rows, 'site:a', 'ArrowLeft')).toEqual({ type: 'collapse', id: 'site:a' });
    expect(treeKeyAction(rows, 'site:a/sys:z-sys', 'ArrowLeft')).toEqual({ type: 'focus', id: 'site:a' });
    expect(treeKeyAction(rows, 'site:a/sys:z-sys', 'End')).toEqual({ type: 'focus', id: 'site:b/sys:dr-1' });
    expect(treeKeyAction(rows, 'site:a/sys:z-sys', 'Home')).toEqual({ type: 'focus', id: 'site:a' });
    expect(treeKeyAction(rows, 'site:a/sys:z-sys', 'Enter')).toEqual({ type: 'activate', id: 'site:a/sys:z-sys' });
    expect(treeKeyAction(rows, 'site:a/sys:z-sys', 'x')).toEqual({ type: 'none' });
  });
});
