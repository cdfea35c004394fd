import { describe, expect, it } from 'vitest';
import { getOperation, OPERATIONS } from '../../../../app/catalog/index.js';
import {
  checkOperationFor,
  collect,
  confirmTarget,
  createdName,
  hintOf,
  isSecretId,
  labelOf,
  sizeEcho,
  itemField,
  listNames,
  previewRequest,
  resolveField,
  secretIds,
  topFields,
  withCatalogChoices,
} from '../../../../renderer/lib/forms/op-form.js';

describe('collect', () => {
  it('sends only what was filled, typed as the catalog says', () => {
    const op = getOperation('POST /hosts/create');
    const { request, problems } = collect(op, {
      'body.Name': ' esx09 ',
      'body.Wwns': '10:00:00:90:fa:12:34:56\n\n10000090fa123457\n',
      'body.Iqn': '',
      'query.async': 'true',
    });
    expect(problems).toEqual({});
    expect(request).toEqual({ query: { async: true }, headers: {}, body: { Name: 'esx09', Wwns: ['10:00:00:90:fa:12:34:56', '10000090fa123457'] } });
  });

  it('names every problem with its line, at once', () => {
    const op = getOperation('POST /hosts/mappings/add');
    const { problems } = collect(op, { 'body.LunIds': '0\n16384\nx', 'body.Application': 'hr' });
    expect(problems['body.LunIds']).toEqual([expect.stringMatching(/^line 2: LUN id 16384 is above 16383/), expect.stringMatching(/^line 3: .* is not a LUN id/)]);
    const host = collect(getOperation('POST /hosts/create'), { 'body.Iqn': 'iqn.2025-13.x', 'body.Ip': '10.0.0.300' });
    expect(Object.keys(host.problems).sort()).toEqual(['body.Ip', 'body.Iqn']);
  });

  it('checks integers, numbers, booleans and date-times', () => {
    const run = (op: string, values: Record<string, string>) => collect(getOperation(op), values);
    expect(run('GET /nodes/utils/run', { 'query.timeoutSeconds': '2.5' }).problems['query.timeoutSeconds']).toEqual([expect.stringContaining('has a fraction')]);
    expect(run('PUT /settings/anomaly_detection/edit', { 'body.ChangeInPercentage': '12,5' }).problems['body.ChangeInPercentage']).toEqual([expect.stringContaining('not a number')]);
    expect(run('PUT /settings/anomaly_detection/edit', { 'body.ChangeInPercentage': '12.5', 'body.Timeframe_days': '7' }).request.body).toEqual({ ChangeInPercentage: 12.5, Timeframe_days: 7 });
    const q = run('GET /notifications/query', { 'query.startTimestamp': '2026-01-31 13:45', 'query.endTimestamp': 'yesterday' });
    expect(q.request.query).toEqual({ startTimestamp: '2026-01-31T13:45:00' });
    expect(q.problems['query.endTimestamp']).toEqual([expect.stringContaining('not a date-time like 2026-01-31T13:45:00')]);
  });

  it('builds nested objects and arrays of objects, leaving out empty ones', () => {
    const op = getOperation('POST /hypervisor/datastore/plugin/create');
    const { request, problems } = collect(
      op,
      {
        'headers.async': 'true',
        'body.datastore.Name': 'ds1',
        'body.datastore.HypervisorHosts': 'esx01\nesx02',
        'body.volume.Application': 'vdi',
        'body.volume.Tiers.TierN': '4\n2',
        'body.volume.Mapping[0].Host': 'esx01',
        'body.volume.Mapping[0].LunId': '3',
        'body.volume.Tiers.TierDataDegradationHistogram[1]': '1\n2',
        'body.SessionTokenPlugin': 'tok',
      },
      { 'body.volume.Mapping': 2, 'body.volume.Tiers.TierDataDegradationHistogram': 2 },
    );
    expect(problems).toEqual({});
    expect(request.headers).toEqual({ async: true });
    expect(request.body).toEqual({
      volume: { Application: 'vdi', Tiers: { TierN: [4, 2], TierDataDegradationHistogram: [[1, 2]] }, Mapping: [{ Host: 'esx01', LunId: 3 }] },
      datastore: { Name: 'ds1', HypervisorHosts: ['esx01', 'esx02'] },
      SessionTokenPlugin: 'tok',
    });
    const bad = collect(op, { 'body.volume.Mapping[0].LunId': '99999' }, { 'body.volume.Mapping': 1 });
    expect(bad.problems['body.volume.Mapping[0].LunId']).toEqual([expect.stringContaining('above 16383')]);
  });

  it('requires what the area says is required and sends an empty body object for body operations', () => {
    const op = getOperation('POST /hosts/create');
    expect(collect(op, {}, {}, { 'body.Name': { required: true } }).problems).toEqual({ 'body.Name': ['required'] });
    expect(collect(op, {}).request.body).toEqual({});
    expect(collect(getOperation('DELETE /hosts/delete'), {}).request.body).toBeUndefined();
  });

  it('clears what an edit form was opened with when the admin empties it, and leaves the rest out', () => {
    const op = getOperation('PUT /hosts/edit');
    const initial = { 'query.name': 'esx01', 'body.Name': 'esx01', 'body.Iqn': 'iqn.1998-01.com.vmware:esx01', 'body.Wwns': '10000090fa123456' };
    const { request, problems } = collect(op, { ...initial, 'body.Iqn': '  ', 'body.Wwns': '' }, {}, {}, initial);
    expect(problems).toEqual({});
    expect(request.body).toEqual({ Name: 'esx01', Iqn: '', Wwns: [] });
    // Without a value to start from, an empty input is still not sent.
    expect(collect(op, { 'query.name': 'esx01', 'body.Iqn': '' }).request.body).toEqual({});
  });

  it('keeps a secret exactly as typed', () => {
    const { request } = collect(getOperation('POST /users/create'), { 'body.Password': '  pass word ' });
    expect(request.body).toEqual({ Password: '  pass word ' });
  });
});

describe('fields', () => {
  it('lists query, header and body inputs with ids and kinds', () => {
    const fields = topFields(getOperation('POST /hypervisor/datastore/plugin/create'));
    expect(fields.map((f) => `${f.id}:${f.kind}`)).toEqual(['headers.async:scalar', 'body.volume:object', 'body.datastore:object', 'body.SessionTokenPlugin:scalar', 'body.ManagerAddress:scalar']);
    const volume = fields[1]!;
    expect(resolveField(getOperation('POST /hypervisor/datastore/plugin/create'), 'body.volume.Shares[3].AllowedSubnets')?.name).toBe('AllowedSubnets');
    expect(() => itemField(volume, 0)).toThrow();
  });

  it('knows secrets however deep, and hints formats', () => {
    const ds = getOperation('POST /hypervisor/datastore/plugin/create');
    expect(isSecretId(ds, 'body.SessionTokenPlugin')).toBe(true);
    expect(isSecretId(ds, 'body.volume.EncryptionKey')).toBe(true);
    expect(isSecretId(ds, 'body.volume.Object.AccessKeys')).toBe(true);
    expect(isSecretId(ds, 'body.volume.Volume')).toBe(false);
    expect(secretIds(getOperation('POST /users/create'), { 'body.Name': 'x', 'body.Password': 'y' })).toEqual(['body.Password']);
    const host = getOperation('POST /hosts/create');
    const wwns = topFields(host).find((f) => f.id === 'body.Wwns')!;
    expect(hintOf(host, wwns)).toBe('WWN, e.g. 10:00:00:90:fa:12:34:56; one per line');
  });

  it('says no type words, and names fields in words', () => {
    const op = getOperation('POST /notifications/targets/syslog/add');
    const field = (id: string) => topFields(op).find((f) => f.id === id) as ReturnType<typeof topFields>[number];
    expect(hintOf(op, field('body.ServerAddress'))).toBe('');
    expect(hintOf(op, field('body.BatchPostingLimit'))).toBe('');
    expect(labelOf(field('body.SslProtocol'))).toBe('TLS version');
    expect(labelOf(field('body.ServerPort'))).toBe('Server port');
  });
});

describe('sizes', () => {
  const op = getOperation('POST /templates/volumes/create');
  const size = topFields(op).find((f) => f.id === 'body.CapacityInBytes') as ReturnType<typeof topFields>[number];

  it('sends a size typed with a unit as its bytes, and echoes what is sent', () => {
    expect(collect(op, { 'body.CapacityInBytes': '2 TiB' }).request.body).toEqual({ CapacityInBytes: 2 * 1024 ** 4 });
    expect(collect(op, { 'body.CapacityInBytes': '2TB' }).request.body).toEqual({ CapacityInBytes: 2e12 });
    expect(collect(op, { 'body.CapacityInBytes': '500 GiB' }).request.body).toEqual({ CapacityInBytes: 500 * 1024 ** 3 });
    expect(hintOf(op, size)).toBe('e.g. 2 TiB, 500 GiB or 2TB');
    expect(sizeEcho(op, size, '2 TiB')).toBe('= 2.00 TiB');
    expect(sizeEcho(op, size, '2T')).toBeUndefined();
  });

  it('refuses an ambiguous or unknown unit before sending', () => {
    expect(collect(op, { 'body.CapacityInBytes': '2T' }).problems).toEqual({ 'body.CapacityInBytes': ['“2T” is ambiguous: write 2 TiB (1024-based) or TB (1000-based)'] });
  });

  it('takes a decimal size, rounded to a whole MiB, and says so', () => {
    const mib = 1024 ** 2;
    const sent = collect(op, { 'body.CapacityInBytes': '2.6 TiB' }, {}, { 'body.CapacityInBytes': { required: true } });
    expect(sent.problems).toEqual({});
    expect(sent.request.body).toEqual({ CapacityInBytes: Math.round((2.6 * 1024 ** 4) / mib) * mib });
    expect(sizeEcho(op, size, '2.6 TiB')).toMatch(/^= 2\.60 TiB \(.* bytes\), rounded to a whole MiB/);
    for (const text of ['1.5 GiB', '0.75 TiB', '2.6 TB', '10.3 GB']) expect(collect(op, { 'body.CapacityInBytes': text }).problems, text).toEqual({});
  });

  it('gives one problem per input: unreadable text in a required field is not also "required"', () => {
    const { problems } = collect(op, { 'body.CapacityInBytes': '2.6 TeB' }, {}, { 'body.CapacityInBytes': { required: true } });
    expect(problems['body.CapacityInBytes']).toHaveLength(1);
    expect(collect(op, {}, {}, { 'body.CapacityInBytes': { required: true } }).problems['body.CapacityInBytes']).toEqual(['required']);
  });
});

describe('previewRequest', () => {
  it('shows the path with repeated query keys, the headers and the body with secrets masked', () => {
    const op = getOperation('DELETE /hosts/wwn/delete');
    const p = previewRequest(op, collect(op, { 'query.name': 'esx 01', 'query.wwns': '10:00:00:90:fa:12:34:56\n10:00:00:90:fa:12:34:57' }).request);
    expect(p.method).toBe('DELETE');
    expect(p.target).toBe('/hosts/wwn/delete?name=esx+01&wwns=10%3A00%3A00%3A90%3Afa%3A12%3A34%3A56&wwns=10%3A00%3A00%3A90%3Afa%3A12%3A34%3A57');
    expect(p.body).toBeUndefined();

    const create = getOperation('POST /hosts/create');
    const preview = previewRequest(create, collect(create, { 'body.Name': 'h', 'body.ChapSecret': 'super-secret-1' }).request);
    expect(preview.headers).toEqual([
      ['Accept', 'application/json'],
      ['Authorization', 'Bearer [redacted]'],
      ['Content-Type', 'application/json-patch+json'],
    ]);
    expect(preview.body).toContain('"ChapSecret": "[redacted]"');
    expect(preview.body).not.toContain('super-secret-1');

    const ds = getOperation('POST /hypervisor/datastore/plugin/create');
    const dsPreview = previewRequest(ds, collect(ds, { 'headers.async': 'false', 'body.volume.EncryptionKey': 'k'.repeat(64) }).request);
    expect(dsPreview.headers).toContainEqual(['async', 'false']);
    expect(dsPreview.body).not.toContain('kkkk');
  });
});

describe('confirmTarget', () => {
  const target = (key: string, values: Record<string, string>) => {
    const op = getOperation(key);
    return confirmTarget(op, collect(op, values).request, 'cobalt-01');
  };

  it('is the value of the name or application selector', () => {
    expect(target('DELETE /hosts/delete', { 'query.name': 'esx01' })).toEqual({ label: 'name', value: 'esx01' });
    expect(target('DELETE /applications/delete', { 'query.application': 'hr' })).toEqual({ label: 'application', value: 'hr' });
    expect(target('DELETE /nas_servers/delete', { 'query.netbios': 'NAS1' })).toEqual({ label: 'netbios', value: 'NAS1' });
    expect(target('PUT /nodes/takeover', { 'body.Node': 'n1' })).toEqual({ label: 'Node', value: 'n1' });
    expect(target('DELETE /notifications/targets/delete', { 'query.name': 'a\nb' })).toEqual({ label: 'name', value: 'a, b' });
    expect(target('DELETE /hosts/delete', {})).toEqual({ label: 'name', value: undefined });
  });

  it('falls back to the system name, and is undefined for what does not destroy', () => {
    expect(target('PUT /nodes/giveback', {})).toEqual({ label: 'the system name', value: 'cobalt-01' });
    expect(target('POST /hosts/create', { 'body.Name': 'x' })).toBeUndefined();
  });

  it('covers every destructive operation of the catalog', () => {
    for (const op of OPERATIONS.filter((o) => o.destructive)) {
      expect(confirmTarget(op, collect(op, {}).request, 'sys'), op.key).toBeDefined();
    }
  });
});

describe('checking an outcome', () => {
  it('finds the nearest list or show operation above a write', () => {
    const check = (key: string) => checkOperationFor(getOperation(key))?.key;
    expect(check('POST /hosts/create')).toBe('GET /hosts/list');
    expect(check('PUT /hosts/wwn/add')).toBe('GET /hosts/list');
    expect(check('POST /notifications/targets/email/add')).toBe('GET /notifications/targets/list');
    expect(check('PUT /notifications/settings/email/edit')).toBe('GET /notifications/settings/email/show');
    expect(check('POST /applications/create')).toBe('GET /applications/list');
    expect(check('PUT /settings/authentication')).toBeUndefined();
  });

  it('knows the created name and whether a list shows it', () => {
    expect(createdName({ query: {}, headers: {}, body: { Name: 'h1' } })).toBe('h1');
    expect(createdName({ query: {}, headers: {}, body: { Application: 'app' } })).toBe('app');
    expect(listNames({ Data: [{ Name: 'h1' }] }, 'h1')).toBe(true);
    expect(listNames({ Data: [{ Application: 'app' }] }, 'h1')).toBe(false);
    expect(listNames('text', 'h1')).toBe(false);
  });
});

describe('withCatalogChoices', () => {
  it('offers a fixed set of values as choices in any generated form, never as free text', () => {
    const values = (opts: ReturnType<typeof withCatalogChoices>, id: string) => opts[id]?.choices?.map((c) => c.value);
    const email = withCatalogChoices(getOperation('PUT /notifications/settings/email/edit'), {});
    expect(values(email, 'body.SecureSocketOption')).toEqual(['None', 'Auto', 'SslOnConnect', 'StartTls', 'StartTlsWhenAvailable']);
    const test = withCatalogChoices(getOperation('POST /notifications/test'), {});
    expect(values(test, 'body.Level')).toEqual(['Verbose', 'Debug', 'Information', 'Warning', 'Error', 'Critical']);
    const list = withCatalogChoices(getOperation('GET /notifications/query'), {});
    expect(values(list, 'query.minLevel')).toContain('Warning');
    expect(values(list, 'query.levels')).toContain('Critical');
    // An area's own choices and labels stay.
    const area = withCatalogChoices(getOperation('POST /notifications/test'), { 'body.Level': { label: 'Level', choices: [{ value: 'Error' }] } });
    expect(area['body.Level']).toEqual({ label: 'Level', choices: [{ value: 'Error' }] });
    expect(withCatalogChoices(getOperation('POST /hosts/create'), {})).toEqual({});
  });
});
