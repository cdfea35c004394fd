import { describe, expect, it } from 'vitest';
import { normaliseAnswer, sketchAnswer } from '../../../../app/answers/normalise.js';
import { parseAnswerJson } from '../../../../app/answers/json-text.js';
import { getOperation } from '../../../../app/catalog/index.js';

const spec = (op: string) => getOperation(op).response;
/** Normalises an answer of `op` given as JSON text, as the client does. */
function read(op: string, text: string): unknown {
  const r = normaliseAnswer(spec(op), parseAnswerJson(text));
  if (!r.ok) throw new Error(`${r.answered} / ${r.expected}`);
  return r.value;
}

describe('normaliseAnswer: list envelopes', () => {
  const hosts = [{ Name: 'esx01', Iqn: 'iqn.a' }];
  it('reads the documented {Data:[...]} as it is', () => {
    expect(read('GET /hosts/list', JSON.stringify({ Data: hosts }))).toEqual({ Data: hosts });
  });

  it.each([
    ['Data in lower case', { data: hosts }],
    ['Data in upper case', { DATA: hosts }],
    ['a Result envelope', { Result: { Data: hosts } }],
    ['a Result envelope in lower case with siblings', { result: { data: hosts }, success: true, errors: [] }],
    ['a Result envelope holding a bare array', { Result: hosts }],
    ['a bare array', hosts],
  ])('reads %s as the same list', (_what, answer) => {
    expect(read('GET /hosts/list', JSON.stringify(answer))).toEqual({ Data: hosts });
  });

  it.each([
    ['{}', {}],
    ['{Data: null}', { Data: null }],
    ['{Result: {Data: null}}', { Result: { Data: null } }],
    ['[]', []],
  ])('reads %s as an empty list', (_what, answer) => {
    expect(read('GET /hosts/list', JSON.stringify(answer))).toEqual({ Data: [] });
  });

  it('keeps fields beside Data', () => {
    expect(read('GET /hosts/list', '{"Data":[],"Message":"none","Count":0}')).toEqual({ Data: [], Message: 'none', Count: 0 });
  });

  it.each([
    ['an unknown envelope', { items: hosts, total: 1 }, '{"items": [1 object], "total": 1}'],
    ['Data that is not a list', { Data: 'x' }, '{"Data": "…"}'],
    ['a Result envelope holding nothing', { Result: null, Success: false }, '{"Result": null, "Success": false}'],
    ['a list of strings', ['a', 'b'], '[2 strings]'],
    ['a string', 'ok', 'a string of 2 characters'],
    ['null', null, 'null'],
  ])('refuses %s, naming what came back', (_what, answer, answered) => {
    const r = normaliseAnswer(spec('GET /hosts/list'), answer);
    expect(r).toMatchObject({ ok: false, answered });
    expect(r.ok ? '' : r.expected).toMatch(/^\{"Data":\[Host, …\]\}/);
  });
});

describe('normaliseAnswer: objects and strings', () => {
  it('reads an object, in a Result or Data envelope too', () => {
    const health = { Volumes: { VolumesHealthInPercentage: 100 } };
    for (const answer of [health, { Result: health }, { data: health }]) expect(read('GET /monitoring/health/current', JSON.stringify(answer))).toEqual(health);
  });

  it('reads an empty object as an object with nothing reported', () => {
    expect(read('GET /monitoring/health/current', '{}')).toEqual({});
  });

  it('refuses an object none of whose fields its type knows (a system list that lists nothing we can read)', () => {
    const r = normaliseAnswer(spec('GET /systems/list'), { items: [{ name: 'a' }] });
    expect(r).toMatchObject({ ok: false, answered: '{"items": [1 object]}', expected: 'a SystemsList object' });
    expect(normaliseAnswer(spec('GET /systems/list'), ['a', 'b'])).toMatchObject({ ok: false, answered: '[2 strings]' });
    expect(normaliseAnswer(spec('GET /monitoring/health/current'), [{ Volumes: {} }])).toMatchObject({ ok: false });
  });

  it('reads a list-only object (the system list) sent the way lists are: {Data:[…]}, a bare array, in a Result envelope', () => {
    const systems = { Systems: [{ Name: 'alpha', Id: 1 }] };
    for (const answer of [{ Data: [{ Name: 'alpha', Id: 1 }] }, [{ name: 'alpha', id: '1' }], { Result: { data: [{ Name: 'alpha', Id: 1 }] } }]) {
      expect(read('GET /systems/list', JSON.stringify(answer))).toEqual(systems);
    }
    expect(read('GET /systems/list', '{"Data":[{"Name":"alpha"}],"Message":"2 systems"}')).toEqual({ Systems: [{ Name: 'alpha' }], Message: '2 systems' });
    expect(read('GET /Version', '{"Data":[{"Component":"Management","Version":"1"}]}')).toEqual({ Versions: [{ Component: 'Management', Version: '1' }] });
  });

  it('reads a message string, also in a Result envelope; refuses anything else', () => {
    expect(read('POST /hosts/create', '"Host created"')).toBe('Host created');
    expect(read('POST /hosts/create', '{"Result":"Host created"}')).toBe('Host created');
    expect(normaliseAnswer(spec('POST /hosts/create'), { Message: 'Host created' })).toMatchObject({ ok: false, expected: 'a JSON string' });
  });

  it('leaves answers the document does not show, and empty ones, as they are', () => {
    const anything = { whatever: [null, 1] };
    expect(normaliseAnswer(spec('GET /configurations/list'), anything)).toEqual({ ok: true, value: anything });
  });
});

describe('normaliseAnswer: fields', () => {
  it('treats null as absent: fields removed, list items dropped, nested too', () => {
    const value = read(
      'GET /monitoring/health/current',
      '{"Volumes":{"VolumesHealthInPercentage":null,"HealthyVolumes":3,"UnhealthyStates":{"v1":null,"v2":"Degraded"}},"HardwareResources":null,"Extra":null}',
    );
    expect(value).toEqual({ Volumes: { HealthyVolumes: 3, UnhealthyStates: { v2: 'Degraded' } } });
    expect(read('GET /hosts/list', '{"Data":[null,{"Name":"h","Wwns":[null,"w1"],"Mappings":null}]}')).toEqual({ Data: [{ Name: 'h', Wwns: ['w1'] }] });
  });

  it('coerces numbers sent as strings where the catalog says integer or number, and only there', () => {
    const value = read(
      'GET /resources/list',
      '{"Data":[{"Name":"n1","Id":"7","Vols":" 12 ","Drives":[{"Id":"3","CapacityInBytes":"4000787030016","Name":"123","Vendor":42,"ResourceStatus":"OK"}]}]}',
    );
    expect(value).toEqual({ Data: [{ Name: 'n1', Id: 7, Vols: 12, Drives: [{ Id: 3, CapacityInBytes: 4000787030016, Name: '123', Vendor: '42', ResourceStatus: 'OK' }] }] });
    expect(read('GET /monitoring/health/current', '{"Volumes":{"VolumesHealthInPercentage":"97.5"},"CapacityUtilization":{"CapacityInBytes":"1e12"}}')).toEqual({
      Volumes: { VolumesHealthInPercentage: 97.5 },
      CapacityUtilization: { CapacityInBytes: 1e12 },
    });
  });

  it('reads "true" and "false" as booleans; a value of another kind is absent rather than misread', () => {
    expect(read('GET /users/list', '{"Data":[{"Name":"a","TwoStepAuthenticationEnabled":"True"}]}')).toEqual({ Data: [{ Name: 'a', TwoStepAuthenticationEnabled: true }] });
    expect(read('GET /monitoring/health/current', '{"Volumes":{"VolumesHealthInPercentage":"n/a","HealthyVolumes":true,"UnhealthyStates":[1]}}')).toEqual({ Volumes: {} });
    expect(read('GET /hosts/list', '{"Data":[{"Name":{"first":"x"},"Wwns":"w1"}]}')).toEqual({ Data: [{}] });
  });

  it('gives field names in another case the catalog spelling, and keeps unknown fields as sent', () => {
    const value = read('GET /resources/list', '{"data":[{"name":"n1","haState":"Normal","drives":[{"id":1,"resourceStatus":"OK"}],"vendorExtra":{"a":null}}]}');
    expect(value).toEqual({ Data: [{ Name: 'n1', HAState: 'Normal', Drives: [{ Id: 1, ResourceStatus: 'OK' }], vendorExtra: { a: null } }] });
    // The catalog's own spelling wins when both are sent.
    expect(read('GET /hosts/list', '{"Data":[{"Name":"right","name":"wrong"}]}')).toEqual({ Data: [{ Name: 'right' }] });
  });

  it('compares enumerations case-insensitively: known spellings restored, unknown values kept', () => {
    const value = read(
      'GET /resources/list',
      '{"Data":[{"State":"RUNNING","HAState":"takenover","Drives":[{"ResourceStatus":"failed","Type":"nvme","ApprovedState":"APPROVED"},{"ResourceStatus":"Rebuilding"}]}]}',
    );
    expect(value).toEqual({ Data: [{ State: 'Running', HAState: 'TakenOver', Drives: [{ ResourceStatus: 'Failed', Type: 'NVMe', ApprovedState: 'Approved' }, { ResourceStatus: 'Rebuilding' }] }] });
    expect(read('GET /monitoring/health/current', '{"CapacityUtilization":{"ProvisioningStates":["ok","FULL"]}}')).toEqual({ CapacityUtilization: { ProvisioningStates: ['Ok', 'Full'] } });
    // The same word in two types keeps each type's spelling: a sensor's OK, a volume's Ok.
    expect(read('GET /applications/list', '{"Data":[{"Volumes":[{"State":"OK"}]}]}')).toEqual({ Data: [{ Volumes: [{ State: 'Ok' }] }] });
  });

  it('keeps identifiers beyond 2^53 exact and other integers as numbers', () => {
    const text = '{"Data":[{"Id":9007199254740993,"Level":3},{"Id":9007199254740992,"Level":"4"},{"Id":"18446744073709551615"},{"Id":"42"}]}';
    expect(read('GET /notifications/query', text)).toEqual({ Data: [{ Id: '9007199254740993', Level: 3 }, { Id: '9007199254740992', Level: 4 }, { Id: '18446744073709551615' }, { Id: 42 }] });
    // Plain JSON.parse makes the first two the same id.
    expect((JSON.parse(text) as { Data: Array<{ Id: number }> }).Data[0]?.Id).toBe((JSON.parse(text) as { Data: Array<{ Id: number }> }).Data[1]?.Id);
    const health = read('GET /monitoring/health/current', '{"CapacityUtilization":{"CapacityInBytes":90071992547409930}}') as { CapacityUtilization: { CapacityInBytes: unknown } };
    expect(health.CapacityUtilization.CapacityInBytes).toBe(Number('90071992547409930'));
    expect(read('GET /replication/list', '{"Data":[{"Volumes":[{"Replication":{"ReplicationPairs":[{"RemoteSystemId":12345678901234567890}]}}]}]}')).toEqual({
      Data: [{ Volumes: [{ Replication: { ReplicationPairs: [{ RemoteSystemId: '12345678901234567890' }] } }] }],
    });
  });

  it('reads a recursive type (workflow children) all the way down', () => {
    expect(read('GET /workflows/volume_provisioning', '{"path":"/a","children":[{"Path":"/b","Children":[{"DisplayName":null,"OrderedCommands":[{"AllowSkipping":"x","Command":"c"}]}]}]}')).toEqual({
      Path: '/a',
      Children: [{ Path: '/b', Children: [{ OrderedCommands: [{ Command: 'c' }] }] }],
    });
  });
});

describe('parseAnswerJson', () => {
  it('keeps long integer literals as text, and nothing else changes', () => {
    const text = '{"a":"x\\"12345678901234567890","b":[12345678901234567890,9007199254740991,1.2345678901234567890,-99999999999999999],"c":1e300}';
    expect(parseAnswerJson(text)).toEqual({ a: 'x"12345678901234567890', b: ['12345678901234567890', 9007199254740991, 1.2345678901234567, '-99999999999999999'], c: 1e300 });
    expect(parseAnswerJson('{"a":[1,2,"3"]}')).toEqual({ a: [1, 2, '3'] });
  });

  it('fails on what is not JSON, as JSON.parse does', () => {
    expect(() => parseAnswerJson('{"a":12345678901234567890')).toThrow(SyntaxError);
    expect(() => parseAnswerJson('<html>')).toThrow(SyntaxError);
  });
});

describe('sketchAnswer', () => {
  it('shows keys and kinds, never string values, short and terminal-safe', () => {
    expect(sketchAnswer({ token: 'secret-value', n: 1, ok: true, list: [], deep: { a: { b: 1 } } })).toBe('{"token": "…", "n": 1, "ok": true, "list": [], "deep": {"a": {…}}}');
    expect(sketchAnswer({ 'evil\u001b[31m\u202ename': 1 })).toBe('{"evil[31mname": 1}');
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`.repeat(3), i]));
    expect(sketchAnswer(wide).length).toBeLessThanOrEqual(160);
  });
});

describe('normaliseAnswer: what other services write', () => {
  it('reads sizes with units (SI powers of 1000, IEC of 1024) and percentages with a sign; other text stays absent', () => {
    const pools = read(
      'GET /monitoring/capacity/pools/current',
      JSON.stringify({ CapacityUsage: [{ Name: 'a', RawSizeInBytes: '3.64 TB', TotalAllocatedSizeInBytes: '512 GiB', TotalConsumedSizeInBytes: '12 bytes', FreeCapacityInBytes: 'lots' }] }),
    ) as { CapacityUsage: Array<Record<string, unknown>> };
    expect(pools.CapacityUsage[0]).toMatchObject({ RawSizeInBytes: 3.64e12, TotalAllocatedSizeInBytes: 512 * 2 ** 30, TotalConsumedSizeInBytes: 12 });
    expect(pools.CapacityUsage[0]).not.toHaveProperty('FreeCapacityInBytes');
    const health = read('GET /monitoring/health/current', JSON.stringify({ Volumes: { VolumesHealthInPercentage: '98.5 %', HealthyVolumes: '3 %' } })) as { Volumes: Record<string, unknown> };
    // A percent sign on a count is no count.
    expect(health.Volumes).toEqual({ VolumesHealthInPercentage: 98.5 });
  });

  it('undoes .NET reference preservation: $id dropped, $values the array, $ref a copy of the object', () => {
    const answer = {
      $id: '1',
      Data: { $id: '2', $values: [{ $id: '3', Name: 'h1', Iqn: 'iqn.a' }, { $ref: '3' }] },
    };
    expect(read('GET /hosts/list', JSON.stringify(answer))).toEqual({ Data: [{ Name: 'h1', Iqn: 'iqn.a' }, { Name: 'h1', Iqn: 'iqn.a' }] });
    const systems = read('GET /systems/list', JSON.stringify({ $id: '1', Systems: { $id: '2', $values: [{ $id: '3', Name: 's1', Id: 1 }] }, Message: 'one' }));
    expect(systems).toEqual({ Systems: [{ Name: 's1', Id: 1 }], Message: 'one' });
  });

  it('reads an enumeration value written as words in the known spelling', () => {
    const nodes = read('GET /nodes/list', JSON.stringify({ Data: [{ Name: 'n1', HAState: 'taken over', State: 'running' }, { Name: 'n2', HAState: 'Takeover_Active' }] })) as { Data: Array<Record<string, unknown>> };
    expect(nodes.Data.map((n) => n.HAState)).toEqual(['TakenOver', 'TakeoverActive']);
  });
});
