import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../../app/catalog/index.js';
import { FORMATS_BY_OPERATION, formatOfField } from '../../../../app/validation/field-formats.js';
import {
  checkEmail,
  checkFormat,
  checkInteger,
  checkIpAddress,
  checkIqn,
  checkLunId,
  checkNqn,
  checkNumber,
  checkPort,
  checkWwn,
  MAX_LUN_ID,
  normalizeWwn,
} from '../../../../app/validation/formats.js';

describe('WWN', () => {
  it.each(['10:00:00:90:fa:12:34:56', '10000090FA123456', '  50:01:43:80:12:34:56:78 '])('accepts %j', (w) => {
    expect(checkWwn(w)).toBeUndefined();
  });

  it.each([
    ['10:00:00:90:fa:12:34', '14 hex digits'],
    ['100000090fa123456', '17 hex digits'],
    ['1000:0090:fa12:3456', 'not a WWN'],
    ['10-00-00-90-fa-12-34-56', 'not a WWN'],
    ['10:00:00:90:fa:12:34:5g', 'not a WWN'],
    ['', '0 hex digits'],
  ])('refuses %j, saying why', (w, why) => {
    expect(checkWwn(w)).toContain(why);
  });

  it('normalizes to the lower-case colon form the systems show', () => {
    expect(normalizeWwn('100000090FA12345'.slice(0, 16))).toBe('10:00:00:09:0f:a1:23:45');
    expect(normalizeWwn('10:00:00:90:FA:12:34:56')).toBe('10:00:00:90:fa:12:34:56');
    expect(normalizeWwn('nope')).toBeUndefined();
  });
});

describe('IQN', () => {
  it.each(['iqn.1994-05.com.redhat:d69696ea023a', 'iqn.1998-01.com.vmware:esx01-aa4c9fce', 'iqn.2025-12.example', 'IQN.2001-04.COM.Example:Storage.Disk2'])('accepts %j', (n) => {
    expect(checkIqn(n)).toBeUndefined();
  });

  it.each([
    ['iqn.1994-13.com.redhat:x', 'month'],
    ['iqn.94-05.com.redhat:x', 'not an IQN'],
    ['iqn.1994-05.-com.redhat', 'not an IQN'],
    ['iqn.1994-05.com.redhat: has space', 'not an IQN'],
    ['eui.02004567A425678D', 'EUI/NAA'],
    ['nqn.2014-08.org.nvmexpress:uuid:1aff2ec0-7b83-73cf-e70e-96c41353390b', 'not an IQN'],
    [`iqn.2025-01.com.example:${'x'.repeat(220)}`, 'at most 223 bytes'],
    // 200 characters but 376 bytes: the limit is in bytes.
    [`iqn.2025-01.com.example:${'é'.repeat(176)}`, 'this one has 376'],
  ])('refuses %j, saying why', (n, why) => {
    expect(checkIqn(n)).toContain(why);
  });
});

describe('NQN', () => {
  it.each(['nqn.2014-08.org.nvmexpress:uuid:1aff2ec0-7b83-73cf-e70e-96c41353390b', 'nqn.2014-08.com.example:nvme:nvm-subsystem-sn-d78432', 'nqn.2025-01.io.k8s:worker2'])(
    'accepts %j',
    (n) => {
      expect(checkNqn(n)).toBeUndefined();
    },
  );

  it.each([
    ['nqn.2014-08.org.nvmexpress:uuid:1aff2ec0-7b83-73cf-e70e', 'malformed UUID'],
    ['nqn.2014-08.com.example', 'lacks the identifier'],
    ['nqn.2014-00.com.example:x', 'not an NQN'],
    ['iqn.1994-05.com.redhat:x', 'not an NQN'],
    [`nqn.2025-01.com.example:${'x'.repeat(220)}`, 'at most 223 bytes'],
  ])('refuses %j, saying why', (n, why) => {
    expect(checkNqn(n)).toContain(why);
  });
});

describe('IP address', () => {
  it.each(['10.0.0.5', '255.255.255.255', '0.0.0.0', 'fd00::5', '::', '::1', '2001:db8:0:0:0:0:2:1', '2001:DB8::8:800:200C:417A', '::ffff:10.1.2.3', '64:ff9b::192.0.2.33', '1:2:3:4:5:6:10.0.0.1'])(
    'accepts %j',
    (a) => {
      expect(checkIpAddress(a)).toBeUndefined();
    },
  );

  it.each([
    ['10.0.0.256', 'each of the four numbers'],
    ['10.0.0', 'not an IP address'],
    ['010.0.0.1', 'each of the four numbers'],
    ['10.0.0.5/24', 'prefix'],
    ['fe80::1%eth0', 'zone id'],
    ['2001:db8::1::2', 'not an IP address'],
    ['1:2:3:4:5:6:7:8:9', 'not an IP address'],
    ['1:2:3:4:5:6:7', 'not an IP address'],
    ['12345::1', 'not an IP address'],
    ['1:2:3:4:5:6:7:10.0.0.1', 'not an IP address'],
    ['storage.example.com', 'not an IP address'],
  ])('refuses %j, saying why', (a, why) => {
    expect(checkIpAddress(a)).toContain(why);
  });
});

describe('numbers, LUN ids, ports, e-mail', () => {
  it('takes LUN ids 0 to 16383 only', () => {
    expect(checkLunId('0')).toBeUndefined();
    expect(checkLunId(String(MAX_LUN_ID))).toBeUndefined();
    expect(checkLunId('16384')).toContain('above 16383');
    expect(checkLunId('-1')).toContain('whole number from 0 to 16383');
    expect(checkLunId('1.5')).toContain('whole number');
  });

  it('takes ports 1 to 65535', () => {
    expect(checkPort('8701')).toBeUndefined();
    expect(checkPort('0')).toContain('outside 1–65535');
    expect(checkPort('65536')).toContain('outside');
    expect(checkPort('http')).toContain('not a port');
  });

  it('tells fractions and overflow apart from other non-integers', () => {
    expect(checkInteger('-42')).toBeUndefined();
    expect(checkInteger('4.5')).toContain('has a fraction');
    expect(checkInteger('9007199254740993')).toContain('too large');
    expect(checkInteger('ten')).toContain('not a whole number');
    expect(checkNumber('1.5e3')).toBeUndefined();
    expect(checkNumber('.5')).toBeUndefined();
    expect(checkNumber('1,5')).toContain('not a number');
    expect(checkNumber('1e999')).toContain('not a number');
  });

  it('checks e-mail addresses loosely', () => {
    expect(checkEmail('ops@example.com')).toBeUndefined();
    expect(checkEmail('ops@example')).toContain('not an e-mail address');
    expect(checkEmail('o ps@example.com')).toContain('not an e-mail address');
  });

  it('dispatches by format id', () => {
    expect(checkFormat('wwn', 'zz')).toContain('not a WWN');
    expect(checkFormat('lun', '7')).toBeUndefined();
  });
});

describe('formatOfField', () => {
  it('knows the identifier fields of host operations', () => {
    expect(formatOfField('POST /hosts/create', 'body', 'Wwns')).toBe('wwn');
    expect(formatOfField('POST /hosts/create', 'body', 'Iqn')).toBe('iqn');
    expect(formatOfField('POST /hosts/create', 'body', 'Nqn')).toBe('nqn');
    expect(formatOfField('POST /hosts/create', 'body', 'Ip')).toBe('ip');
    expect(formatOfField('DELETE /hosts/wwn/delete', 'query', 'wwns')).toBe('wwn');
    expect(formatOfField('POST /hosts/mappings/add', 'body', 'LunIds')).toBe('lun');
  });

  it('maps an ambiguous name per operation and through nested objects', () => {
    expect(formatOfField('POST /floatingips/create', 'body', 'Address')).toBe('ip');
    expect(formatOfField('PUT /notifications/targets/email/edit', 'body', 'Address')).toBe('email');
    expect(formatOfField('PUT /nodes/isns', 'body', 'Address')).toBeUndefined();
    expect(formatOfField('POST /hypervisor/datastore/plugin/create', 'body', 'volume.Mapping[2].LunId')).toBe('lun');
    expect(formatOfField('GET /resources/network/ping', 'query', 'address')).toBeUndefined();
  });

  it('only ever names fields that exist in the catalog', () => {
    // Every by-operation entry must point at a real field, or a catalog rename would silently drop a check.
    const known = new Set(
      OPERATIONS.flatMap((op) => [...op.query.map((f) => `${op.key} query.${f.name}`), ...op.body.map((f) => `${op.key} body.${f.name}`)]),
    );
    const named = Object.entries(FORMATS_BY_OPERATION).flatMap(([op, fields]) => Object.keys(fields).map((f) => `${op} ${f}`));
    expect(named.length).toBeGreaterThan(0);
    for (const key of named) expect(known.has(key), key).toBe(true);
  });
});
