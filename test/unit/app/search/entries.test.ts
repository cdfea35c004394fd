import { describe, expect, it } from 'vitest';
import { fullGc } from '../../../support/full-gc.js';
import { dataEntriesOf, entriesOf, foldEntry, searchEntries } from '../../../../app/search/entries.js';

const entries = entriesOf({
  siteId: 's1',
  siteName: 'Site one',
  siteHost: 'mgmt-1.example:8443',
  system: 'prod-a',
  hosts: [{ Name: 'esx-01', Ip: '10.0.0.5', Wwns: ['50:01:43:80:12:34:56:78'], Iqn: 'iqn.1998-01.com.vmware:esx-01', Nqn: 'nqn.2014-08.org.nvmexpress:esx-01' }],
  applications: [{ Application: 'sql', Volumes: [{ Volume: 'data', Naa: '6001405abcdef' }] }],
  resources: [{ Name: 'node-1', Drives: [{ Id: 4, Name: 'd4', ResourceSerial: 'ZL2ABCDE' }] }],
  nodes: [{ Name: 'node-1', Iqn: 'iqn.2025-01.example:node-1', Wwn: ['21:00:00:24:ff:00:00:01'] }],
});

describe('fleet search', () => {
  it('finds a drive by serial and leads to its detail', () => {
    expect(searchEntries(entries, 'zl2abcde')).toEqual([
      { siteId: 's1', system: 'prod-a', kind: 'drive', text: 'ZL2ABCDE', context: 'd4 on node-1', area: 'hardware', detail: { kind: 'drive', node: 'node-1', driveId: 4 } },
    ]);
  });

  it('finds a WWN with or without separators', () => {
    expect(searchEntries(entries, '5001438012345678').map((e) => [e.kind, e.context])).toEqual([['WWN', 'host esx-01']]);
    expect(searchEntries(entries, '50:01:43:80').map((e) => e.kind)).toEqual(['WWN']);
  });

  it('finds IQNs of hosts and nodes, volumes by name and NAA, systems and site hosts', () => {
    expect(searchEntries(entries, 'iqn.').map((e) => e.context).sort()).toEqual(['host esx-01', 'node node-1']);
    expect(searchEntries(entries, 'sql/data')[0]).toMatchObject({ kind: 'volume', area: 'applications', detail: { kind: 'volume', application: 'sql', volume: 'data' } });
    expect(searchEntries(entries, '6001405')[0]?.kind).toBe('volume');
    expect(searchEntries(entries, 'prod-a')[0]).toMatchObject({ kind: 'system', area: 'summary' });
    expect(searchEntries(entries, 'mgmt-1')[0]?.kind).toBe('site host');
  });

  it('ranks an exact match before a partial one and needs every word', () => {
    expect(searchEntries(entries, 'esx-01')[0]).toMatchObject({ kind: 'host', text: 'esx-01' });
    expect(searchEntries(entries, 'esx-01 nqn').map((e) => e.kind)).toEqual(['NQN']);
    expect(searchEntries(entries, '   ')).toEqual([]);
  });

  it('keeps a fleet of entries compact in memory: under 420 bytes per folded entry, strings included', () => {
    // Main holds every system's entries (74,000 at a thousand systems). Entries spread from a
    // shared base (`{ ...base, kind, … }`) each had a hidden class of their own: 578 bytes each here.
    const gc = fullGc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept: unknown[] = [];
    let count = 0;
    for (let s = 0; s < 500; s++) {
      const hosts = Array.from({ length: 10 }, (_, i) => ({ Name: `h${i}`, Ip: `10.0.${s}.${i}`, Wwns: [`50:01:${s}:${i}:00`, `50:01:${s}:${i}:01`] }));
      const folded = dataEntriesOf({ siteId: `site${s % 50}`, siteName: 'lab', siteHost: 'mgmt', system: `sys${s}`, hosts }).map(foldEntry);
      count += folded.length;
      kept.push(folded);
    }
    gc();
    const perEntry = (process.memoryUsage().heapUsed - before) / count;
    expect(kept).toHaveLength(500);
    expect(count).toBe(20_000);
    expect(perEntry).toBeLessThan(420);
  });
});
