import { describe, expect, it } from 'vitest';
import { glossaryLabel } from '../../../../renderer/lib/forms/glossary.js';

describe('field labels', () => {
  it('speaks the admin’s words for the interface’s field names', () => {
    expect(glossaryLabel('SslProtocol')).toBe('TLS version');
    expect(glossaryLabel('ServerPort')).toBe('Server port');
    expect(glossaryLabel('CapacityInBytes')).toBe('Size');
    expect(glossaryLabel('Force')).toBe('Skip the system’s approval prompt');
  });

  it('turns any other name into words, acronyms upper-case', () => {
    expect(glossaryLabel('RemoteDataStatus')).toBe('Remote data status');
    expect(glossaryLabel('IpAddress')).toBe('IP address');
    expect(glossaryLabel('allowOnDisconnected')).toBe('Allow on disconnected');
    expect(glossaryLabel('ReplicationIds')).toBe('Replication IDs');
    expect(glossaryLabel('FreeSpaceInPercentage')).toBe('Free space (%)');
    expect(glossaryLabel('Shares[0]')).toBe('Shares 1');
  });
});
