import { request } from 'undici';
import { getOperation } from '../../../app/catalog/index.js';
import { ApiClient } from '../../../main/client/index.js';
import { realWait } from '../../../simulator/clock.js';
import { SimClock, startSimulator } from '../../../simulator/index.js';
import type { SimulatorHandle, SimulatorOptions } from '../../../simulator/index.js';

/** What a test passes to `call`. */
type CallOpts = { query?: Record<string, unknown>; body?: unknown; headers?: Record<string, unknown>; token?: string };

/** A fixed start time, so tests that look at timestamps are reproducible. */
export const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);

export interface Harness {
  sim: SimulatorHandle;
  client: ApiClient;
  token: string;
  baseUrl: string;
  /** Logs in another session (optionally as another user) at a site, with a 24-hour inactivity timeout. */
  login(user?: { Username: string; Password: string }, site?: number): Promise<string>;
  /** Calls an operation at site 0 with the harness token (or `token`). */
  call<T = unknown>(op: string, options?: CallOpts): Promise<T>;
  close(): Promise<void>;
  /**
   * Every wait the simulator made, in ms (latency, utilities, the slow analyzer): what it took its
   * time for, read without a watch. The waits are real unless `instantWaits` is set.
   */
  waits: number[];
  /** When true, the simulator's waits are recorded and end at once. */
  instantWaits: boolean;
}

/** Starts a simulator (frozen clock at T0, no control server unless asked) with a logged-in client at site 0. */
export async function harness(options: SimulatorOptions = {}): Promise<Harness> {
  const waits: number[] = [];
  const state = { instantWaits: false };
  const wait = (ms: number): Promise<void> => {
    waits.push(ms);
    return state.instantWaits ? Promise.resolve() : realWait(ms);
  };
  const sim = await startSimulator({ clock: SimClock.frozen(T0, wait), controlServer: false, ...options });
  const site = sim.manifest.sites[0];
  if (!site) throw new Error('no site');
  const client = new ApiClient({ baseUrl: site.baseUrl, timeoutMs: 10_000 });
  const clients: ApiClient[] = [client];
  // Long inactivity timeout: tests advance the clock by hours and must not lose their sessions.
  const login = async (user: { Username: string; Password: string } = { Username: site.username, Password: site.password }, siteIndex = 0): Promise<string> => {
    const s = sim.manifest.sites[siteIndex];
    if (!s) throw new Error(`no site ${siteIndex}`);
    const c = siteIndex === 0 ? client : new ApiClient({ baseUrl: s.baseUrl });
    if (c !== client) clients.push(c);
    const result = await c.login({ InactivityTimeoutInMinutes: 1440, ...user });
    if (!result.SessionToken) throw new Error(`login gave no token: ${result.Status}`);
    return result.SessionToken;
  };
  const token = await login();
  return {
    sim,
    client,
    token,
    waits,
    get instantWaits() {
      return state.instantWaits;
    },
    set instantWaits(on: boolean) {
      state.instantWaits = on;
    },
    baseUrl: site.baseUrl,
    login,
    // Tests name operations loosely (any case, values the client coerces): resolved at run time as the CLI does.
    call: <T,>(op: string, o: CallOpts = {}) => client.call(getOperation(op), { ...o, token: o.token ?? token }) as Promise<T>,
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
      await sim.close();
    },
  };
}

export interface RawResponse {
  status: number;
  text: string;
  contentType: string | undefined;
}

/** A request sent as is (no client-side validation), for protocol tests. */
export async function raw(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  if (options.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json-patch+json';
  const res = await request(`${baseUrl}${path}`, { method: method as 'GET', headers, body: options.body });
  const text = await res.body.text();
  const ct = res.headers['content-type'];
  return { status: res.statusCode, text, contentType: Array.isArray(ct) ? ct[0] : ct };
}

/** The JSON string of an error body (400/401 answer with a plain JSON string). */
export function errorString(r: RawResponse): string {
  const v: unknown = JSON.parse(r.text);
  if (typeof v !== 'string') throw new Error(`expected a JSON string body, got ${r.text.slice(0, 100)}`);
  return v;
}

/** Awaits a promise expected to reject and returns the error. */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the call to fail');
}
