// The alert engine and the search index both skip a system whose poll changed nothing they
// read; the node and drive lists move at every poll in members neither reads, so both compare a digest
// of what stays, taken once per content version for both.
import { describe, expect, it } from 'vitest';
import { AnswerDigests, VOLATILE_READS, stableDigest } from '../../../../main/core/answer-digests.js';
import { cacheKey } from '../../../../main/store/offline-cache.js';

const [RESOURCES] = VOLATILE_READS;
const RESOURCES_KEY = cacheKey(RESOURCES.op, RESOURCES.query);
const HOSTS = { op: 'GET /hosts/list', query: { wwn: true } };

function fleet() {
  const texts = new Map<string, string>();
  const reads: string[] = [];
  return {
    texts,
    reads,
    source: {
      cachedText: (_site: string, _system: string, op: string, query: Record<string, unknown> = {}) => {
        const key = cacheKey(op, query);
        reads.push(key);
        const json = texts.get(key);
        return json === undefined ? undefined : { json };
      },
    },
  };
}

const nodeList = (time: string, celsius: number, state: string): string =>
  JSON.stringify({ Data: [{ Name: 'node-1', Time: time, Sensors: [{ Name: 'cpu', Value: celsius }], HardwareUtilization: { CPUInPercentage: celsius }, Drives: [{ Id: 1, State: state }] }] });

describe('AnswerDigests', () => {
  it('gives an answer that is not volatile as its content version, and a missing one as null, reading no text', () => {
    const f = fleet();
    const digests = new AnswerDigests(f.source);
    const versions = new Map([[cacheKey(HOSTS.op, HOSTS.query), 7]]);
    expect(digests.seen('s1', 'a', HOSTS, versions)).toBe(7);
    expect(digests.seen('s1', 'a', RESOURCES, versions)).toBeNull();
    expect(f.reads).toEqual([]);
  });

  it('gives a node list the same digest when only clocks, sensors and load moved, another when a drive state did', () => {
    const f = fleet();
    const digests = new AnswerDigests(f.source);
    f.texts.set(RESOURCES_KEY, nodeList('12:00', 41, 'OK'));
    const first = digests.seen('s1', 'a', RESOURCES, new Map([[RESOURCES_KEY, 1]]));
    f.texts.set(RESOURCES_KEY, nodeList('12:01', 44, 'OK'));
    expect(digests.seen('s1', 'a', RESOURCES, new Map([[RESOURCES_KEY, 2]]))).toBe(first);
    f.texts.set(RESOURCES_KEY, nodeList('12:02', 44, 'Failed'));
    expect(digests.seen('s1', 'a', RESOURCES, new Map([[RESOURCES_KEY, 3]]))).not.toBe(first);
  });

  it('reads a volatile answer’s text once per content version, whoever asks, and per system', () => {
    const f = fleet();
    const digests = new AnswerDigests(f.source);
    f.texts.set(RESOURCES_KEY, nodeList('12:00', 41, 'OK'));
    const v1 = new Map([[RESOURCES_KEY, 1]]);
    const d = digests.seen('s1', 'a', RESOURCES, v1);
    expect(digests.seen('s1', 'a', RESOURCES, v1)).toBe(d);
    expect(f.reads).toHaveLength(1);
    digests.seen('s1', 'b', RESOURCES, v1);
    expect(f.reads).toHaveLength(2);
    digests.seen('s1', 'a', RESOURCES, new Map([[RESOURCES_KEY, 2]]));
    expect(f.reads).toHaveLength(3);
    digests.clear();
    digests.seen('s1', 'a', RESOURCES, new Map([[RESOURCES_KEY, 2]]));
    expect(f.reads).toHaveLength(4);
  });
});

describe('stableDigest', () => {
  const node = (extra: Record<string, unknown>): unknown => ({ Data: [{ Name: 'node-1', Drives: [{ Id: 1, State: 'OK', ...extra }] }] });

  it('leaves out the unread members at any depth, and no other', () => {
    const base = stableDigest(node({}));
    expect(stableDigest(node({ Time: '12:00', Sensors: [1], HardwareUtilization: { Cpu: 3 }, StatsInfo: { Iops: 9 } }))).toBe(base);
    expect(stableDigest(node({ Times: '12:00' }))).not.toBe(base);
    expect(stableDigest(node({ State2: 'OK' }))).not.toBe(base);
  });

  it('masks a secret field holding a value, in any case, as the cache stores it', () => {
    expect(stableDigest(node({ ChapSecret: 'one' }))).toBe(stableDigest(node({ ChapSecret: 'two' })));
    expect(stableDigest(node({ chapsecret: 'one' }))).toBe(stableDigest(node({ chapsecret: '[redacted]' })));
    expect(stableDigest(node({ ChapSecret: '' }))).not.toBe(stableDigest(node({ ChapSecret: 'two' })));
    expect(stableDigest(node({ ChapSecret: null }))).not.toBe(stableDigest(node({ ChapSecret: 'two' })));
    expect(stableDigest(node({ Chap: 'one' }))).not.toBe(stableDigest(node({ Chap: 'two' })));
  });

  it('still tells members apart once an answer has named thousands of members', () => {
    const many: Record<string, number> = {};
    for (let i = 0; i < 5000; i++) many[`Field${i}`] = i;
    stableDigest(many);
    // Names first met now, past the bound of names remembered.
    expect(stableDigest(node({ Password: 'a', Sensor: 1 }))).toBe(stableDigest(node({ Password: 'b', Sensor: 1 })));
    expect(stableDigest(node({ Password: 'a', Sensor: 1 }))).not.toBe(stableDigest(node({ Password: 'a', Sensor: 2 })));
    expect(stableDigest(node({ Sensors: 1, NewName: 1 }))).toBe(stableDigest(node({ Sensors: 2, NewName: 1 })));
  });
});
