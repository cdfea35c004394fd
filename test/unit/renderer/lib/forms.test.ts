import { describe, expect, it } from 'vitest';
import { choices, lines, parseTextTable, volumesOf } from '../../../../renderer/areas/shared.js';
import { OPERATION_GROUPS, searchOperations } from '../../../../renderer/lib/forms/operations.js';

describe('searchOperations', () => {
  it('needs every word, in path, summary or group, and ranks path matches first', () => {
    expect(searchOperations('hosts create').map((o) => o.key)).toEqual(['POST /hosts/create']);
    const keys = searchOperations('encryption').map((o) => o.key);
    expect(keys).toEqual(['GET /applications/encryption/encryption_key_example', 'PUT /applications/encryption/supply_encryption_key']);
    // Only in summaries: catalog order.
    expect(searchOperations('ha state').map((o) => o.key)).toEqual(['PUT /nodes/giveback', 'PUT /nodes/takeover']);
    // "take" is in both summaries but only one path.
    expect(searchOperations('take over services').map((o) => o.key)).toEqual(['PUT /nodes/takeover', 'PUT /nodes/giveback']);
    expect(searchOperations('', 'users').map((o) => o.key)).toEqual(['POST /users/create', 'DELETE /users/delete', 'PUT /users/edit', 'GET /users/list']);
    expect(searchOperations('list', 'users').map((o) => o.key)).toEqual(['GET /users/list']);
    expect(searchOperations('no such thing')).toEqual([]);
  });

  it('offers every group once', () => {
    expect(new Set(OPERATION_GROUPS).size).toBe(OPERATION_GROUPS.length);
    expect(OPERATION_GROUPS).toContain('hypervisor');
  });
});

describe('area helpers', () => {
  it('reads the text tables some operations answer with', () => {
    const text = 'Name      Addresses                 Mask\nrepl-vip  10.201.1.50, 10.201.1.51  255.255.255.0\nodd row\n';
    expect(parseTextTable(text)).toEqual({
      header: ['Name', 'Addresses', 'Mask'],
      rows: [['repl-vip', '10.201.1.50, 10.201.1.51', '255.255.255.0'], ['odd row']],
    });
    expect(parseTextTable('No replication floating IPs.')).toEqual({ header: [], rows: [['No replication floating IPs.']] });
    expect(parseTextTable('')).toEqual({ header: [], rows: [] });
  });

  it('builds choices and list text from cached lists', () => {
    expect(choices(['a', undefined, '', 'b', 'a', null])).toEqual([{ value: 'a' }, { value: 'b' }]);
    expect(lines(['x', 2])).toBe('x\n2');
    expect(lines(undefined)).toBe('');
    expect(volumesOf([{ Application: 'hr', Volumes: [{ Volume: 'data' }, { Volume: 'log' }] }], 'hr')).toEqual(['data', 'log']);
    expect(volumesOf([], 'hr')).toEqual([]);
  });
});
