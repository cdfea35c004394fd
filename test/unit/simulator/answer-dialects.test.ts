import { describe, expect, it } from 'vitest';
import { getOperation } from '../../../app/catalog/index.js';
import { answerText, camel } from '../../../simulator/answer-dialects.js';
import { parseDialects } from '../../../simulator/dialects.js';

/** The answer of `op` as the simulator writes it in these dialects, parsed back. */
function written(dialects: string, op: string, value: unknown): unknown {
  return JSON.parse(answerText(new Set(parseDialects(dialects)), getOperation(op), value));
}

const hosts = { Data: [{ Name: 'esx01', Wwns: [], Iqn: '', Mappings: [{ Application: 'a', Volume: 'v', LunId: 3 }] }] };
const resources = { Data: [{ Name: 'n1', Id: 1, State: 'Running', HAState: 'Normal', Drives: [{ Id: 7, ResourceStatus: 'OK', Type: 'NVMe', Name: 'OK' }] }] };

describe('answer dialects of the simulator', () => {
  it('writes the document shape when none is on', () => {
    expect(answerText(new Set(), getOperation('GET /hosts/list'), hosts)).toBe(JSON.stringify(hosts));
  });

  it('envelope-result wraps lists, objects and messages in Result', () => {
    expect(written('envelope-result', 'GET /hosts/list', hosts)).toEqual({ Result: hosts });
    expect(written('envelope-result', 'GET /monitoring/health/current', { Volumes: {} })).toEqual({ Result: { Volumes: {} } });
    expect(written('envelope-result', 'POST /hosts/create', 'Host created')).toEqual({ Result: 'Host created' });
  });

  it('envelope-lower writes field names in camelCase, map keys as they are', () => {
    expect(written('envelope-lower', 'GET /resources/list', resources)).toEqual({
      data: [{ name: 'n1', id: 1, state: 'Running', haState: 'Normal', drives: [{ id: 7, resourceStatus: 'OK', type: 'NVMe', name: 'OK' }] }],
    });
    expect(written('envelope-lower', 'GET /monitoring/health/current', { HardwareResources: { UnhealthyResourceCount: { Drive: 1 } } })).toEqual({
      hardwareResources: { unhealthyResourceCount: { Drive: 1 } },
    });
    expect(['HAState', 'CPUInPercentage', 'IOPS', 'Id', 'optimizedIops', 'TierUsageChangeInBytes_90thPrecentile'].map(camel)).toEqual([
      'haState',
      'cpuInPercentage',
      'iops',
      'id',
      'optimizedIops',
      'tierUsageChangeInBytes_90thPrecentile',
    ]);
  });

  it('nulls sends empty strings and lists, empty Data and the volumes health percentage as null', () => {
    expect(written('nulls', 'GET /hosts/list', hosts)).toEqual({ Data: [{ Name: 'esx01', Wwns: null, Iqn: null, Mappings: [{ Application: 'a', Volume: 'v', LunId: 3 }] }] });
    expect(written('nulls', 'GET /hosts/list', { Data: [] })).toEqual({ Data: null });
    expect(written('nulls', 'GET /monitoring/health/current', { Volumes: { VolumesHealthInPercentage: 100, HealthyVolumes: 2 } })).toEqual({
      Volumes: { VolumesHealthInPercentage: null, HealthyVolumes: 2 },
    });
  });

  it('numeric-strings sends every number as a string', () => {
    expect(written('numeric-strings', 'GET /hosts/list', hosts)).toEqual({ Data: [{ Name: 'esx01', Wwns: [], Iqn: '', Mappings: [{ Application: 'a', Volume: 'v', LunId: '3' }] }] });
  });

  it('enum-case flips the case of enumeration values only', () => {
    expect(written('enum-case', 'GET /resources/list', resources)).toEqual({
      Data: [{ Name: 'n1', Id: 1, State: 'RUNNING', HAState: 'NORMAL', Drives: [{ Id: 7, ResourceStatus: 'ok', Type: 'NVME', Name: 'OK' }] }],
    });
    expect(written('enum-case', 'POST /login', { SessionToken: 't', Status: 'Ok' })).toEqual({ SessionToken: 't', Status: 'OK' });
  });

  it('unknown-envelope writes lists as {items, total}, and leaves other answers', () => {
    expect(written('unknown-envelope', 'GET /hosts/list', hosts)).toEqual({ items: hosts.Data, total: 1 });
    expect(written('unknown-envelope', 'GET /monitoring/health/current', { Volumes: {} })).toEqual({ Volumes: {} });
  });

  it('big-ids writes notification and system ids past 2^53 as JSON integers', () => {
    const text = answerText(new Set(parseDialects('big-ids')), getOperation('GET /notifications/query'), { Data: [{ Id: 5, Level: 3 }] });
    expect(text).toBe('{"Data":[{"Id":9007199254740997,"Level":3}]}');
    expect(answerText(new Set(parseDialects('big-ids')), getOperation('GET /systems/list'), { Systems: [{ Id: 1, Name: 's' }] })).toBe('{"Systems":[{"Id":9007199254740993,"Name":"s"}]}');
  });
});
