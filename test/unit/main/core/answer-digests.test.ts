// The alert engine and the search index both skip a system whose poll changed nothing they
// read; the node and drive lists move at every poll in members neither reads, so both compare a digest
// of what stays, taken once per content version for both.
import { describe, expect, it } from 'vitest';
import { AnswerDigests, VOLATILE_READS, stableDigest, stableText } from '../../../../main/core/answer-digests.js';
import { FIELDS_NO_RULE_READS } from '../../../../app/alerts/evaluate.js';
import { REDACTED, isSecretField, redactedJson } from '../../../../app/redact.js';
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

describe('stableText and stableDigest', () => {
  const UNREAD = new Set(FIELDS_NO_RULE_READS);
  /** The definition: the value as the cache stores it, with a replacer leaving the unread members out. */
  const expected = (value: unknown): string =>
    JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
      if (key === '' || Array.isArray(this)) return v;
      if (UNREAD.has(key)) return undefined;
      return isSecretField(key) && v !== null && v !== undefined && v !== '' ? REDACTED : v;
    }) ?? '';
  const stored = (value: unknown): string => redactedJson(value) ?? '';

  it('leaves out the unread members wherever they sit: first, last, only, nested, in arrays', () => {
    const cases: unknown[] = [
      { Time: 1, A: 2 },
      { A: 2, Time: 1 },
      { Time: { at: [1, { Sensors: 2 }] } },
      { Time: 1, Sensors: [1, 2], HardwareUtilization: { Cpu: 3 }, StatsInfo: 'x', A: 1 },
      { A: [{ Sensors: [] }, { B: 1, Sensors: [{ Name: 'x' }] }], B: { Time: null, C: true } },
      [{ Time: 'a' }, { Time: 'b', Name: 'n' }],
      { Times: 1, xTime: 2, Time: 3, TIME: 4 },
    ];
    for (const value of cases) expect(stableText(stored(value)), JSON.stringify(value)).toBe(expected(value));
    expect(stableText('{"A":1,"Time":{"x":[1,2,{"y":"]}"}]},"B":2}')).toBe('{"A":1,"B":2}');
  });

  it('cuts nothing that only looks like a member inside a string', () => {
    for (const text of ['{,"Time":1}', 'a\\",\\"Time\\":[', '"\\', 'x\\"', ']}', '{"Time":1}']) {
      const value = { Message: text, Time: text, List: [text, { Sensors: text, Name: text }] };
      expect(stableText(stored(value)), text).toBe(expected(value));
    }
  });

  it('agrees with the definition over many random answers', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    const keys = [...FIELDS_NO_RULE_READS, 'Name', 'Password', 'Data', 'Time2', 'sensors', '', '"Time"', ',"Sensors":'];
    const strings = ['', 'ok', '"', '\\', ',"Time":', '{"Sensors":[', ']', '}', 'é', '\u2028', '[redacted]'];
    const valueOf = (depth: number): unknown => {
      const kind = random(depth > 3 ? 4 : 6);
      if (kind === 0) return strings[random(strings.length)];
      if (kind === 1) return random(1000) - 500;
      if (kind === 2) return [true, false, null][random(3)];
      if (kind === 3) return random(2) ? 1.5e300 : -0.25;
      if (kind === 4) return Array.from({ length: random(4) }, () => valueOf(depth + 1));
      const o: Record<string, unknown> = {};
      for (let i = random(5); i > 0; i--) o[keys[random(keys.length)] as string] = valueOf(depth + 1);
      return o;
    };
    for (let i = 0; i < 2000; i++) {
      const value = { Data: [valueOf(0), valueOf(0)] };
      expect(stableText(stored(value)), JSON.stringify(value)).toBe(expected(value));
    }
  });

  it('gives two answers the same digest only when they differ in unread members alone', () => {
    const node = (extra: Record<string, unknown>): string => stored({ Data: [{ Name: 'node-1', Drives: [{ Id: 1, State: 'OK', ...extra }] }] });
    const base = stableDigest(node({}));
    expect(stableDigest(node({ Time: '12:00', Sensors: [1], HardwareUtilization: { Cpu: 3 }, StatsInfo: { Iops: 9 } }))).toBe(base);
    expect(stableDigest(node({ Times: '12:00' }))).not.toBe(base);
    expect(stableDigest(node({ State2: 'OK' }))).not.toBe(base);
    // Secret fields as the cache stores them: masked, whatever they held.
    expect(stableDigest(node({ ChapSecret: 'one' }))).toBe(stableDigest(node({ ChapSecret: 'two' })));
    expect(stableDigest(node({ ChapSecret: '' }))).not.toBe(stableDigest(node({ ChapSecret: 'two' })));
  });

  it('takes a damaged stored text’s digest from the text as it is', () => {
    const f = fleet();
    const digests = new AnswerDigests(f.source);
    f.texts.set(RESOURCES_KEY, '{"Data":[{"Name":"n","Time":"12:00"');
    const damaged = digests.seen('s1', 'a', RESOURCES, new Map([[RESOURCES_KEY, 1]]));
    f.texts.set(RESOURCES_KEY, '{"Data":[{"Name":"n","Time":"12:01"');
    expect(digests.seen('s1', 'a', RESOURCES, new Map([[RESOURCES_KEY, 2]]))).not.toBe(damaged);
    f.texts.set(RESOURCES_KEY, '{"Data":[{"Name":"n"}]}');
    expect(digests.seen('s1', 'a', RESOURCES, new Map([[RESOURCES_KEY, 3]]))).toBe(stableDigest('{"Data":[{"Name":"n","Time":"12:01"}]}'));
  });
});
