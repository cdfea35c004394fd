import { describe, expect, it } from 'vitest';
import { newSiteSchema, siteEditSchema, siteInputSchema, sitePatchSchema, sitePollingSchema, siteSchema, siteViewSchema } from '../../../../app/domain/site.js';
import { CONTRACT } from '../../../../app/ipc/contract.js';

const keys = (shape: object): string[] => Object.keys(shape).sort();

describe('one site shape, its variants derived', () => {
  it('derives what the store adds and patches from the stored site, and nothing else', () => {
    const site = new Set(keys(siteSchema.shape));
    for (const k of keys(newSiteSchema.shape)) expect(site, k).toContain(k);
    for (const k of keys(sitePatchSchema.shape)) expect(site, k).toContain(k);
    expect(keys(sitePatchSchema.shape)).not.toContain('id');
  });

  it('shows the renderer the stored site without certificate text, with what it needs instead', () => {
    expect(keys(siteViewSchema.shape)).toEqual([...keys(siteSchema.shape).filter((k) => k !== 'createdAt' && k !== 'updatedAt'), 'simulated', 'managed'].sort());
    expect(keys(siteViewSchema.shape.tls.shape)).toEqual(['expiredSince', 'hasCaBundle', 'pinSha256', 'validTo']);
  });

  it('carries the same schemas over IPC as the domain declares', () => {
    expect(CONTRACT['sites:add'].request).toBe(siteInputSchema);
    expect(CONTRACT['sites:edit'].request.shape.patch).toBe(siteEditSchema);
    expect(CONTRACT['sites:list'].response.element).toBe(siteViewSchema);
    // An edit's polling fields are the stored polling's, bounded.
    expect(siteEditSchema.safeParse({ maxInFlight: 65 }).success).toBe(false);
    expect(siteEditSchema.safeParse({ intervalSeconds: 1.5 }).success).toBe(false);
    expect(sitePollingSchema.safeParse({ intervalSeconds: 0, paused: false, maxInFlight: 0 }).success).toBe(false);
  });

  it('keeps every field of a stored site, what its login taught included', () => {
    const stored = {
      id: 'lab-a',
      name: 'Lab A',
      baseUrl: 'https://mgmt.lab.example/api',
      username: 'admin',
      group: 'Paris',
      tags: ['prod'],
      tls: { pinSha256: 'ab'.repeat(32) },
      allowHttp: false,
      polling: { intervalSeconds: 60, paused: true, maxInFlight: 2 },
      auth: { tokenScheme: 'raw', learnedAt: '2025-01-01T00:00:00.000Z' },
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-02T00:00:00.000Z',
    };
    expect(siteSchema.parse(stored)).toEqual(stored);
  });
});
