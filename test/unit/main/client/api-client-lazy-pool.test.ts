import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RecordingServer, json } from '../../../support/recording-server.js';

// undici is loaded when a client first sends, not when it is built (cold start). A start
// builds a client per site and may send nothing (every site paused), so it must not pay for undici.
// Its mock factory runs only when something imports it.
let undiciLoads = 0;
vi.mock('undici', async (importOriginal) => {
  undiciLoads++;
  return importOriginal();
});

const { ApiClient, UnreachableError } = await import('../../../../main/client/index.js');

describe('ApiClient opens its pool on the first request', () => {
  const server = new RecordingServer();
  let baseUrl = '';
  beforeAll(async () => {
    baseUrl = await server.start();
  });
  afterAll(() => server.close());

  it('builds without undici, loads it on the first call and answers it', async () => {
    const client = new ApiClient({ baseUrl, timeoutMs: 30_000 });
    try {
      expect(undiciLoads).toBe(0);
      server.responder = (_r, res) => json(res, 200, { Data: [{ Name: 'esx01' }] });
      expect(await client.call('GET /hosts/list', { token: 't' })).toEqual({ Data: [{ Name: 'esx01' }] });
      expect(undiciLoads).toBe(1);
      // The pool is kept: a second call goes through it.
      expect(await client.call('GET /hosts/list', { token: 't' })).toEqual({ Data: [{ Name: 'esx01' }] });
      expect(server.requests.filter((r) => r.url.startsWith('/hosts/list'))).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('a client closed before it sent anything refuses a call as unreachable, sending nothing', async () => {
    const client = new ApiClient({ baseUrl, timeoutMs: 30_000 });
    const before = server.requests.length;
    await client.close();
    const onSend = vi.fn();
    const err = await client.call('GET /hosts/list', { token: 't', onSend }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreachableError);
    expect(onSend).not.toHaveBeenCalled();
    expect(server.requests.length).toBe(before);
  });
});
