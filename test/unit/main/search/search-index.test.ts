// The fleet search built its index in the renderer by reading four cached answers per
// system over IPC (55 s at 1,000 systems). Main keeps the index now; these tests hold its matching to
// the renderer's old rules and results, and its incremental and incomplete states.
import { describe, expect, it } from 'vitest';
import type { SystemStatus } from '../../../../app/domain/site.js';
import { cacheKey } from '../../../../main/store/offline-cache.js';
import { entriesOf, searchEntries, type SystemData } from '../../../../app/search/entries.js';
import { AnswerDigests } from '../../../../main/core/answer-digests.js';
import { SEARCH_READS, SearchIndex, type SearchSite, type SearchSource } from '../../../../main/search/search-index.js';

type Listener = (e: { type: string; status?: SystemStatus }) => void;

/** A fleet of cached answers, with a count of cache reads and the listeners main's fleet would call. */
class FakeFleet implements SearchSource {
  statuses: SystemStatus[] = [];
  readonly answers = new Map<string, unknown>();
  /** The content version of each cached answer, by `site/system/cacheKey`. */
  readonly versions = new Map<string, number>();
  #clock = 0;
  readonly listeners = new Set<Listener>();
  reads = 0;
  damaged = new Set<string>();

  status(): SystemStatus[] {
    return [...this.statuses];
  }
  cached(siteId: string, system: string, opKey: string, query: Record<string, unknown>, options: { recordUse?: boolean }): { value: unknown } | undefined {
    expect(options.recordUse).toBe(false);
    this.reads++;
    const k = `${siteId}/${system}/${cacheKey(opKey, query)}`;
    if (this.damaged.has(k)) throw new Error('the cached answer is damaged');
    return this.answers.has(k) ? { value: this.answers.get(k) } : undefined;
  }
  /** Stored texts read (by the digests of the volatile answers). */
  texts = 0;
  cachedText(siteId: string, system: string, opKey: string, query: Record<string, unknown> = {}): { json: string } | undefined {
    this.texts++;
    const k = `${siteId}/${system}/${cacheKey(opKey, query)}`;
    return this.answers.has(k) ? { json: JSON.stringify(this.answers.get(k)) } : undefined;
  }
  cachedVersions(siteId: string, system: string): ReadonlyMap<string, number> {
    const prefix = `${siteId}/${system}/`;
    return new Map([...this.versions].filter(([k]) => k.startsWith(prefix)).map(([k, at]) => [k.slice(prefix.length), at]));
  }
  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(status: SystemStatus): void {
    for (const l of this.listeners) l({ type: 'status', status });
  }
  put(d: SystemData): void {
    const set = (r: { op: string; query: Record<string, unknown> }, data: unknown): void => {
      const k = `${d.siteId}/${d.system}/${cacheKey(r.op, r.query)}`;
      // As the cache does: an answer stored again unchanged keeps its content version.
      if (JSON.stringify(this.answers.get(k)) === JSON.stringify({ Data: data })) return;
      this.answers.set(k, { Data: data });
      this.versions.set(k, ++this.#clock);
    };
    if (d.hosts) set(SEARCH_READS.hosts, d.hosts);
    if (d.applications) set(SEARCH_READS.applications, d.applications);
    if (d.resources) set(SEARCH_READS.resources, d.resources);
    if (d.nodes) set(SEARCH_READS.nodes, d.nodes);
    if (!this.statuses.some((s) => s.siteId === d.siteId && s.system === d.system)) this.statuses.push(status(d.siteId, d.system));
  }
}

const status = (siteId: string, system: string, state: SystemStatus['state'] = 'ok'): SystemStatus => ({ siteId, system, state });

/** The two systems of the renderer's old search tests, on two sites. */
const PROD_A: SystemData = {
  siteId: 's1',
  siteName: 'Site one',
  siteHost: 'mgmt-1.example:8443',
  system: 'prod-a',
  hosts: [{ Name: 'esx-01', Ip: '10.0.0.5', Wwns: ['50:01:43:80:12:34:56:78'], Iqn: 'iqn.1998-01.com.vmware:esx-01', Nqn: 'nqn.2014-08.org.nvmexpress:esx-01' }],
  applications: [{ Application: 'sql', Volumes: [{ Volume: 'data', Naa: '6001405abcdef' }] }],
  resources: [{ Name: 'node-1', Drives: [{ Id: 4, Name: 'd4', ResourceSerial: 'ZL2ABCDE' }] }],
  nodes: [{ Name: 'node-1', Iqn: 'iqn.2025-01.example:node-1', Wwn: ['21:00:00:24:ff:00:00:01'] }],
};
const DR_B: SystemData = {
  siteId: 's2',
  siteName: 'Site two',
  siteHost: 'mgmt-2.example',
  system: 'dr-b',
  hosts: [{ Name: 'esx-02', Ip: '10.0.1.5', Iqn: 'iqn.1998-01.com.vmware:esx-02' }],
  applications: [{ Application: 'sql', Volumes: [{ Volume: 'logs', Naa: '6001405fedcba' }] }],
  resources: [{ Name: 'node-1', Drives: [{ Id: 1, Name: 'd1', ResourceSerial: 'ZL2XYZ' }, { Name: 'no id' }] }],
  nodes: [{ Name: 'node-1' }],
};
const SITES: SearchSite[] = [
  { id: 's1', name: 'Site one', baseUrl: 'https://mgmt-1.example:8443' },
  { id: 's2', name: 'Site two', baseUrl: 'https://mgmt-2.example' },
];

function setup(o: { queryReads?: number; slice?: number; sliceMs?: number; now?: () => number; sites?: SearchSite[]; digests?: boolean } = {}) {
  const fleet = new FakeFleet();
  fleet.put(PROD_A);
  fleet.put(DR_B);
  const deferred: Array<() => void> = [];
  const warnings: string[] = [];
  let sites = o.sites ?? SITES;
  let afterStart: (() => void) | undefined;
  const index = new SearchIndex({
    fleet,
    sites: () => sites,
    afterStart: (run) => {
      afterStart = run;
      return () => (afterStart = undefined);
    },
    defer: (run) => void deferred.push(run),
    ...(o.queryReads !== undefined ? { queryReads: o.queryReads } : {}),
    ...(o.slice !== undefined ? { slice: o.slice } : {}),
    ...(o.sliceMs !== undefined ? { sliceMs: o.sliceMs } : {}),
    ...(o.now ? { now: o.now } : {}),
    warn: (m) => void warnings.push(m),
    ...(o.digests ? { digests: new AnswerDigests(fleet) } : {}),
  });
  index.start();
  /** Runs the background slices until none is left; how many ran. */
  const drain = (): number => {
    let n = 0;
    while (deferred.length) {
      deferred.shift()?.();
      n++;
    }
    return n;
  };
  return { fleet, index, deferred, drain, warnings, setSites: (s: SearchSite[]) => (sites = s), startUpOver: () => afterStart?.() };
}

describe('the fleet search index in main', () => {
  it('answers what the renderer’s search answered on the same data, same order', () => {
    const { index } = setup();
    // The renderer's old index: every system's entries in the fleet's order (site name, system).
    const old = [...entriesOf(PROD_A), ...entriesOf(DR_B)];
    for (const q of ['zl2abcde', 'zl2', '5001438012345678', '50:01:43:80', 'iqn.', 'sql/data', 'sql', '6001405', 'prod-a', 'mgmt-1', 'esx-01', 'esx-01 nqn', 'node-1', 'site', '10.0', '   ']) {
      const answer = index.query(q, 500);
      expect(answer.results, q).toEqual(searchEntries(old, q, 500));
      expect(answer.total, q).toBe(searchEntries(old, q, 10_000).length);
      expect(answer).toMatchObject({ systems: 2, pending: 0 });
    }
    // The old tests' expectations, through main.
    expect(index.query('zl2abcde', 10).results).toEqual([
      { siteId: 's1', system: 'prod-a', kind: 'drive', text: 'ZL2ABCDE', context: 'd4 on node-1', area: 'hardware', detail: { kind: 'drive', node: 'node-1', driveId: 4 } },
    ]);
    expect(index.query('50:01:43:80', 10).results.map((e) => [e.kind, e.context])).toEqual([['WWN', 'host esx-01']]);
    expect(index.query('iqn.', 10).results.map((e) => e.context).sort()).toEqual(['host esx-01', 'host esx-02', 'node node-1']);
    expect(index.query('esx-01 nqn', 10).results.map((e) => e.kind)).toEqual(['NQN']);
  });

  it('returns the first N results with the number that match in all, exact matches first', () => {
    const { index } = setup();
    const all = index.query('node-1', 500);
    // Two nodes, a node IQN and WWN, two drives on a node-1.
    expect(all.total).toBe(6);
    const first = index.query('node-1', 2);
    expect(first.total).toBe(6);
    expect(first.results).toEqual(all.results.slice(0, 2));
    expect(first.results.map((e) => e.text)).toEqual(['node-1', 'node-1']);
  });

  it('reads nothing before the first query, then the rest in background slices, saying how many are still to read', () => {
    const { fleet, index, deferred, drain } = setup({ queryReads: 0, slice: 1 });
    expect(fleet.reads).toBe(0);
    expect(deferred).toHaveLength(0);
    // Nothing read yet: not a silent empty list, but "2 systems still to read".
    expect(index.query('esx', 50)).toEqual({ results: [], total: 0, systems: 2, pending: 2 });
    deferred.shift()?.();
    const half = index.query('esx', 50);
    expect(half.pending).toBe(1);
    expect(new Set(half.results.map((e) => e.system))).toEqual(new Set(['prod-a']));
    expect(half.total).toBe(5);
    expect(drain()).toBeGreaterThan(0);
    expect(index.query('esx', 50)).toMatchObject({ total: 8, pending: 0 });
  });

  it('ends a background slice when its time is up, after one system at least, so IPC waits for no more than that', () => {
    // Each look at the clock finds 10 ms gone: past an 8 ms budget after the first system.
    let t = 0;
    const { fleet, index, deferred, startUpOver } = setup({ queryReads: 0, slice: 10, sliceMs: 8, now: () => (t += 10) });
    startUpOver();
    deferred.shift()?.();
    expect(index.pending).toBe(1);
    const oneSystem = fleet.reads;
    expect(oneSystem).toBeGreaterThan(0);
    deferred.shift()?.();
    expect(index.pending).toBe(0);
    expect(fleet.reads).toBe(2 * oneSystem);
    // With time to spare, one slice reads up to its count.
    const quick = setup({ queryReads: 0, slice: 10, sliceMs: 8, now: () => 0 });
    quick.startUpOver();
    quick.deferred.shift()?.();
    expect(quick.index.pending).toBe(0);
  });

  it('starts reading in the background once start-up is over, with no query', () => {
    const { fleet, index, deferred, drain, startUpOver } = setup({ queryReads: 0 });
    expect(fleet.reads).toBe(0);
    startUpOver();
    expect(deferred).toHaveLength(1);
    drain();
    expect(fleet.reads).toBe(8);
    expect(index.pending).toBe(0);
    expect(index.query('zl2', 10)).toMatchObject({ total: 2, pending: 0 });
  });

  it('does not read again a system whose poll cached nothing new for the search', () => {
    const { fleet, index } = setup();
    index.query('', 1);
    const reads = fleet.reads;
    fleet.emit(status('s1', 'prod-a', 'ok'));
    expect(index.query('esx', 10).pending).toBe(0);
    expect(fleet.reads).toBe(reads);
  });

  // A node or drive list moves at every poll (clocks, sensor readings, load), so every poll
  // gave it a new content version and the index read and folded every polled system again each minute.
  it('does not read again a system whose poll moved only clocks, sensors and load in its node and drive lists', () => {
    const poll = (fleet: FakeFleet, at: string, celsius: number, serial = 'ZL2ABCDE'): void =>
      fleet.put({
        ...PROD_A,
        resources: [{ Name: 'node-1', Time: at, Sensors: [{ Name: 'cpu', Value: celsius }], HardwareUtilization: { CPUInPercentage: celsius }, Drives: [{ Id: 4, Name: 'd4', ResourceSerial: serial }] }] as unknown as SystemData['resources'],
        nodes: [{ Name: 'node-1', Time: at, Iqn: 'iqn.2025-01.example:node-1', Wwn: ['21:00:00:24:ff:00:00:01'] }] as unknown as SystemData['nodes'],
      });
    for (const withDigests of [true, false]) {
      const { fleet, index } = setup({ digests: withDigests });
      poll(fleet, '2026-01-01T12:00:00Z', 41);
      index.query('', 1);
      const reads = fleet.reads;
      poll(fleet, '2026-01-01T12:01:00Z', 44);
      fleet.emit(status('s1', 'prod-a', 'ok'));
      expect(index.query('zl2abcde', 10)).toMatchObject({ total: 1, pending: 0 });
      // Without the digests (the content versions alone), the same poll costs the four answers again.
      expect(fleet.reads - reads).toBe(withDigests ? 0 : 4);
      if (!withDigests) continue;
      // A text read per volatile answer and poll, not per query or status event.
      const texts = fleet.texts;
      fleet.emit(status('s1', 'prod-a', 'ok'));
      expect(index.query('zl2', 10).pending).toBe(0);
      expect(fleet.texts).toBe(texts);
      // What the search shows did change: read again.
      poll(fleet, '2026-01-01T12:02:00Z', 45, 'ZL2NEW01');
      fleet.emit(status('s1', 'prod-a', 'ok'));
      expect(index.query('zl2new01', 10).results.map((e) => `${e.system} ${e.text} ${e.context}`)).toEqual(['prod-a ZL2NEW01 d4 on node-1']);
      expect(index.query('zl2abcde', 10).total).toBe(0);
      expect(fleet.reads - reads).toBe(4);
    }
  });

  it('reads a system again when its refresh ends or one of its searched answers is cached, and only then', () => {
    const { fleet, index } = setup();
    expect(index.query('esx-09', 10).total).toBe(0);
    fleet.put({ ...PROD_A, hosts: [...(PROD_A.hosts ?? []), { Name: 'esx-09' }] });
    // Not yet: nothing said the data changed (the old index also waited for the refresh's end).
    expect(index.query('esx-09', 10).total).toBe(0);
    const before = fleet.reads;
    fleet.emit(status('s1', 'prod-a', 'refreshing'));
    expect(index.query('esx-09', 10).total).toBe(0);
    fleet.emit(status('s1', 'prod-a', 'ok'));
    expect(index.query('esx-09', 10).results.map((e) => `${e.system} ${e.text}`)).toEqual(['prod-a esx-09']);
    // One system read again (four answers), not the fleet.
    expect(fleet.reads - before).toBe(4);

    fleet.put({ ...DR_B, nodes: [{ Name: 'node-7' }] });
    index.noteCachedRead('s2', 'dr-b', 'GET /Version');
    expect(index.query('node-7', 10).total).toBe(0);
    // The same operation under another query is another cached answer, not the one searched.
    index.noteCachedRead('s2', 'dr-b', 'GET /nodes/list', { name: 'node-7' });
    expect(index.query('node-7', 10).total).toBe(0);
    index.noteCachedRead('s2', 'dr-b', SEARCH_READS.nodes.op, SEARCH_READS.nodes.query);
    expect(index.query('node-7', 10).results.map((e) => e.system)).toEqual(['dr-b']);
  });

  it('searches a new system once listed, and forgets a removed one', () => {
    const { fleet, index, drain } = setup({ queryReads: 0 });
    index.query('', 1);
    drain();
    fleet.put({ siteId: 's2', siteName: 'Site two', siteHost: '', system: 'dr-c', hosts: [{ Name: 'esx-03' }] });
    expect(index.query('esx-03', 10)).toMatchObject({ total: 0, systems: 3, pending: 1 });
    drain();
    expect(index.query('esx-03', 10)).toMatchObject({ total: 1, systems: 3, pending: 0 });
    fleet.statuses = fleet.statuses.filter((s) => s.siteId !== 's2');
    expect(index.query('esx', 10)).toMatchObject({ total: 5, systems: 1, pending: 0 });
    expect(new Set(index.query('esx', 10).results.map((e) => e.system))).toEqual(new Set(['prod-a']));
  });

  it('limits a scoped window to its site', () => {
    const { index } = setup();
    const answer = index.query('esx', 50, 's2');
    expect(answer.systems).toBe(1);
    expect(new Set(answer.results.map((e) => e.siteId))).toEqual(new Set(['s2']));
  });

  it('follows a renamed site without reading its systems again', () => {
    const { fleet, index, setSites } = setup();
    index.query('', 1);
    const reads = fleet.reads;
    setSites([{ id: 's1', name: 'Lyon', baseUrl: 'https://lyon.example' }, SITES[1] as SearchSite]);
    expect(index.query('prod-a', 1).results[0]).toMatchObject({ kind: 'system', context: 'Lyon' });
    expect(index.query('lyon.example', 5).results.map((e) => e.kind)).toEqual(['site host']);
    expect(index.query('mgmt-1', 5).total).toBe(0);
    expect(fleet.reads).toBe(reads);
  });

  it('keeps what it can read of a system whose cached answer is damaged, and says which', () => {
    const { fleet, index, warnings } = setup();
    fleet.damaged.add(`s1/prod-a/${cacheKey(SEARCH_READS.hosts.op, SEARCH_READS.hosts.query)}`);
    expect(index.query('zl2abcde', 5).total).toBe(1);
    expect(index.query('esx-01', 5).total).toBe(0);
    expect(warnings.join('\n')).toContain('GET /hosts/list of prod-a');
  });

  it('stops following the fleet when closed', () => {
    const { fleet, index, deferred } = setup();
    index.query('', 1);
    index.close();
    expect(fleet.listeners.size).toBe(0);
    fleet.emit(status('s1', 'prod-a'));
    expect(deferred).toHaveLength(0);
  });
});
