/**
 * What bounds one request: its own timeout (connect, headers and the whole body) and the caller's
 * signal (a system's refresh passes one signal to all of its ~60 requests). A request ends its
 * timer and its hold on the caller's signal when it ends, so a refresh does not pile them up.
 */
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, CancelledError, UnreachableError } from '../../../main/client/index.js';
import { RecordingServer, json } from '../../support/recording-server.js';
import { until } from '../../support/until.js';

describe('the bounds of a request', () => {
  const server = new RecordingServer();
  let client: ApiClient;

  beforeAll(async () => {
    client = new ApiClient({ baseUrl: await server.start(), timeoutMs: 5000 });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('leaves no listener on the caller signal once answered, refused or failed', async () => {
    const caller = new AbortController();
    server.responder = (r, res) => (r.url.includes('/hosts/') ? json(res, 200, { Data: [{ Name: 'esx01' }] }) : json(res, 400, 'no such template'));
    for (let i = 0; i < 20; i++) {
      await expect(client.call('GET /hosts/list', { token: 't', signal: caller.signal })).resolves.toEqual({ Data: [{ Name: 'esx01' }] });
      await expect(client.call('GET /templates/list', { token: 't', signal: caller.signal })).rejects.toThrow('no such template');
    }
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    // The signal still works for the next request: nothing of the earlier ones aborted it.
    expect(caller.signal.aborted).toBe(false);
  });

  it('ends a request in flight when the caller aborts, with the caller reason when it is a client error', async () => {
    server.responder = () => undefined;
    const deadline = new AbortController();
    let seen = server.requests.length;
    const call = client.call('GET /hosts/list', { token: 't', signal: deadline.signal }).catch((e: unknown) => e);
    await until(() => server.requests.length > seen, () => 'the request at the server');
    const reason = new UnreachableError('refresh of paris/prod-a: no answer within 60 s, the limit for the whole of it', 'timeout');
    deadline.abort(reason);
    expect(await call).toBe(reason);
    expect(getEventListeners(deadline.signal, 'abort')).toHaveLength(0);

    const closed = new AbortController();
    seen = server.requests.length;
    const other = client.call('GET /hosts/list', { token: 't', signal: closed.signal }).catch((e: unknown) => e);
    await until(() => server.requests.length > seen, () => 'the second request at the server');
    closed.abort();
    expect(await other).toBeInstanceOf(CancelledError);
  });

  it('holds one listener on a signal however many of its requests are in flight, and ends them all when it aborts', async () => {
    server.responder = () => undefined;
    const refresh = new AbortController();
    const seen = server.requests.length;
    const calls = Array.from({ length: 4 }, () => client.call('GET /hosts/list', { token: 't', signal: refresh.signal }).catch((e: unknown) => e));
    await until(() => server.requests.length >= seen + 4, () => 'the four requests at the server');
    expect(getEventListeners(refresh.signal, 'abort')).toHaveLength(1);
    const reason = new UnreachableError('refresh of paris/prod-a: no answer within 60 s, the limit for the whole of it', 'timeout');
    refresh.abort(reason);
    expect(await Promise.all(calls)).toEqual([reason, reason, reason, reason]);
    expect(getEventListeners(refresh.signal, 'abort')).toHaveLength(0);
  });

  it('ends a request still waiting for a connection as soon as the caller aborts, not when a connection frees up', async () => {
    const single = new ApiClient({ baseUrl: `http://127.0.0.1:${server.port}`, timeoutMs: 120_000, connections: 1 });
    server.responder = () => undefined;
    const seen = server.requests.length;
    const first = new AbortController();
    let firstSettled = false;
    const holding = single
      .call('GET /hosts/list', { token: 't', signal: first.signal })
      .catch((e: unknown) => e)
      .finally(() => (firstSettled = true));
    await until(() => server.requests.length > seen, () => 'the first request at the server');
    const waiting = new AbortController();
    const queued = single.call('GET /hosts/list', { token: 't', signal: waiting.signal }).catch((e: unknown) => e);
    const reason = new UnreachableError('refresh of paris/prod-a: no answer within 60 s, the limit for the whole of it', 'timeout');
    waiting.abort(reason);
    expect(await queued).toBe(reason);
    // The only connection is still held by the first request: the second did not wait for it.
    expect(firstSettled).toBe(false);
    expect(server.requests.length).toBe(seen + 1);
    first.abort();
    expect(await holding).toBeInstanceOf(CancelledError);
    await single.close();
  });

  it('times out a body that stops half way, not only a missing answer', async () => {
    server.responder = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"Data":[');
    };
    const caller = new AbortController();
    const err = await client.call('GET /hosts/list', { token: 't', timeoutMs: 300, signal: caller.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreachableError);
    expect((err as UnreachableError).message).toMatch(/no answer within 300 ms/);
    expect(caller.signal.aborted).toBe(false);
  });
});
