import { describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { CHANNEL_NAMES, EVENT_NAMES } from '../../../../app/ipc/channels.js';
import { CONTRACT, EVENTS } from '../../../../app/ipc/contract.js';
import { isSecretField } from '../../../../app/redact.js';

/** Every property name a schema can produce, at any depth. */
function keysOf(schema: z.ZodType, seen = new Set<z.ZodType>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  const out: string[] = [];
  if (def.type === 'object') {
    for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) out.push(k, ...keysOf(v, seen));
  }
  for (const inner of ['innerType', 'element', 'valueType', 'in', 'out'] as const) {
    if (def[inner]) out.push(...keysOf(def[inner] as z.ZodType, seen));
  }
  if (Array.isArray(def.options)) for (const o of def.options as z.ZodType[]) out.push(...keysOf(o, seen));
  return out;
}

describe('IPC contract', () => {
  it('defines exactly the channels and events the preload knows, named domain:verb', () => {
    expect(Object.keys(CONTRACT).sort()).toEqual([...CHANNEL_NAMES].sort());
    expect(Object.keys(EVENTS).sort()).toEqual([...EVENT_NAMES].sort());
    for (const c of CHANNEL_NAMES) expect(c).toMatch(/^[a-z]+:[a-z]+$/);
  });

  it('never carries a token or password in a response or event', () => {
    for (const [channel, { response }] of Object.entries(CONTRACT)) {
      const secret = keysOf(response as z.ZodType).filter(isSecretField);
      expect(secret, channel).toEqual([]);
    }
    for (const [event, schema] of Object.entries(EVENTS)) expect(keysOf(schema as z.ZodType).filter(isSecretField), event).toEqual([]);
  });

  it('accepts the password only where it is sent to main (add site, login)', () => {
    const withPassword = Object.entries(CONTRACT)
      .filter(([, { request }]) => keysOf(request as z.ZodType).some(isSecretField))
      .map(([c]) => c)
      .sort();
    expect(withPassword).toEqual(['session:login', 'sites:add']);
  });

  it('refuses malformed requests', () => {
    expect(CONTRACT['op:call'].request.safeParse({ site: 'a' }).success).toBe(false);
    expect(CONTRACT['op:call'].request.safeParse({ site: 'a', operation: 'GET /hosts/list' }).success).toBe(true);
    // Operations are named by catalog key: a misspelt one is refused at the boundary, not sent on.
    for (const operation of ['GET /host/list', 'get /hosts/list', 'GET /hosts/list ']) {
      expect(CONTRACT['op:call'].request.safeParse({ site: 'a', operation }).success, operation).toBe(false);
      expect(CONTRACT['cache:read'].request.safeParse({ site: 'a', system: 's', operation }).success, operation).toBe(false);
    }
    expect(CONTRACT['session:login'].request.safeParse({ site: 'a', code: '12ab56' }).success).toBe(false);
    expect(CONTRACT['sites:add'].request.safeParse({ name: '', baseUrl: 'x', username: 'u' }).success).toBe(false);
    expect(CONTRACT['fleet:refresh'].request.safeParse({ sites: 'all' }).success).toBe(false);
  });

  it('builds a schema when it is first read, once: loading the contract builds none', async () => {
    vi.resetModules();
    const fresh = (await import('../../../../app/ipc/contract.js')).CONTRACT;
    const kind = (entry: object, key: string): string => {
      const d = Object.getOwnPropertyDescriptor(entry, key);
      return d?.get ? 'not built' : d && 'value' in d ? 'built' : 'missing';
    };
    for (const c of CHANNEL_NAMES) expect([kind(fresh[c], 'request'), kind(fresh[c], 'response')], c).toEqual(['not built', 'not built']);
    const request = fresh['alerts:snooze'].request;
    expect(fresh['alerts:snooze'].request).toBe(request);
    expect([kind(fresh['alerts:snooze'], 'request'), kind(fresh['alerts:snooze'], 'response')]).toEqual(['built', 'not built']);
    // Built late, it validates as before.
    expect(request.safeParse({ ids: [], until: null }).success).toBe(false);
    expect(request.safeParse({ ids: [1], until: null }).success).toBe(true);
  });
});
