import type { BodyOf, HeadersOf, Operation, OperationKey, QueryOf, ResultOf } from '../../app/catalog/index.js';
import type { SiteView, SystemStatusView } from '../../app/ipc/contract.js';
import { api } from './api.js';
import type { FleetStore } from './fleet.svelte.js';
import type { CacheRead } from './reads.js';
import { nowIso } from './format.js';
import { readOnlyReason } from './states.js';

/** A value with where it came from and when: every view shows `at` ("as of"). */
export interface Loaded<T> {
  value: T;
  /** ISO time the value was read from the system. */
  at: string;
  /** True when the system is not currently ok, so the value may be out of date. */
  stale: boolean;
  source: 'cache' | 'live';
}

/** Parameters of a call of the operation `K`: the query, body and headers the catalog declares for it. */
export interface TypedCallParams<K extends OperationKey> {
  query?: QueryOf<K>;
  body?: BodyOf<K>;
  headers?: HeadersOf<K>;
  /** Names the call so `op:cancel` can stop it (see LongRun). */
  callId?: string;
}

/** Parameters of a call of an operation resolved at run time (a console form): main validates them against the catalog. */
export interface CallParams {
  query?: Record<string, unknown>;
  body?: unknown;
  /** Header parameters (only the datastore operation's `async`). */
  headers?: Record<string, unknown>;
  /** Names the call so `op:cancel` can stop it (see LongRun). */
  callId?: string;
}

/**
 * One system as a view talks to it. Every call names the site and the system, so each goes through
 * that system's own session in main; nothing here holds a token.
 */
export class SystemContext {
  constructor(
    readonly fleet: FleetStore,
    readonly siteId: string,
    readonly system: string,
  ) {}

  get status(): SystemStatusView | undefined {
    return this.fleet.status(this.siteId, this.system);
  }

  get site(): SiteView | undefined {
    return this.fleet.site(this.siteId);
  }

  /** Why writes are disabled now, or undefined when they are allowed. */
  get readOnly(): string | undefined {
    return readOnlyReason(this.status?.state);
  }

  /** Moves when a refresh has written new cached reads for this system. */
  get version(): number {
    return this.fleet.version(this.siteId, this.system);
  }

  /** The cached answer of a read, or null when the cache has none. */
  async readCache<K extends OperationKey>(read: CacheRead<K>): Promise<Loaded<ResultOf<K>> | null> {
    const hit = await api().invoke('cache:read', { site: this.siteId, system: this.system, operation: read.op, query: read.query });
    // The cache holds answers main normalised to the catalog's shape for this operation.
    return hit ? { value: hit.value as ResultOf<K>, at: hit.at, stale: hit.stale, source: 'cache' } : null;
  }

  /** A read from the system now; falls back to the cache (same operation and query) when offline or failing. */
  async fetch<K extends OperationKey>(op: K, query?: QueryOf<K>): Promise<Loaded<ResultOf<K>> | null>;
  async fetch(op: Operation, query?: Record<string, unknown>): Promise<Loaded<unknown> | null>;
  async fetch(op: Operation | OperationKey, query: Record<string, unknown> = {}): Promise<Loaded<unknown> | null> {
    let failure: unknown;
    if (!this.readOnly) {
      try {
        const value = await this.#send(op, { query });
        return { value, at: nowIso(), stale: false, source: 'live' };
      } catch (err) {
        failure = err;
      }
    }
    const cached = await this.readCache({ op: typeof op === 'string' ? op : (op.key as OperationKey), query });
    if (cached) return cached;
    if (failure) throw failure;
    return null;
  }

  /** Calls a catalog operation on this system; the answer as main returns it (normalised, redacted). */
  async call<K extends OperationKey>(op: K, params?: TypedCallParams<K>): Promise<ResultOf<K>>;
  async call(op: Operation, params?: CallParams): Promise<unknown>;
  async call(op: Operation | OperationKey, params: CallParams = {}): Promise<unknown> {
    return this.#send(op, params);
  }

  async #send(op: Operation | OperationKey, params: CallParams): Promise<unknown> {
    const res = await api().invoke('op:call', {
      site: this.siteId,
      system: this.system,
      // An Operation's key is a catalog key; the channel refuses anything else.
      operation: (typeof op === 'string' ? op : op.key) as OperationKey,
      ...(params.query ? { query: params.query } : {}),
      ...(params.body !== undefined ? { body: params.body } : {}),
      ...(params.headers && Object.keys(params.headers).length > 0 ? { headers: params.headers } : {}),
      ...(params.callId ? { callId: params.callId } : {}),
    });
    return res.result;
  }

  /**
   * A write (anything the catalog marks `writes`): refused here when the system is read-only; then,
   * unless `refresh: false`, refreshes the system in the background so the views show its effect.
   */
  async write<K extends OperationKey>(op: K, params?: TypedCallParams<K> & { refresh?: boolean }): Promise<ResultOf<K>>;
  async write(op: Operation, params?: CallParams & { refresh?: boolean }): Promise<unknown>;
  async write(op: Operation | OperationKey, params: CallParams & { refresh?: boolean } = {}): Promise<unknown> {
    const reason = this.readOnly;
    if (reason) throw new Error(`read-only: ${reason}`);
    const result = await this.#send(op, params);
    if (params.refresh !== false) void this.fleet.refresh({ siteId: this.siteId, system: this.system });
    return result;
  }
}
