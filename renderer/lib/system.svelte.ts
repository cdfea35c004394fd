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

/** Parameters of one operation call, as the catalog names them. */
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
  async readCache<T>(read: CacheRead): Promise<Loaded<T> | null> {
    const hit = await api().invoke('cache:read', { site: this.siteId, system: this.system, operation: read.op, query: read.query });
    return hit ? { value: hit.value as T, at: hit.at, stale: hit.stale, source: 'cache' } : null;
  }

  /** A read from the system now; falls back to the cache (same operation and query) when offline or failing. */
  async fetch<T>(op: string, query: Record<string, unknown> = {}): Promise<Loaded<T> | null> {
    let failure: unknown;
    if (!this.readOnly) {
      try {
        const value = await this.call<T>(op, { query });
        return { value, at: nowIso(), stale: false, source: 'live' };
      } catch (err) {
        failure = err;
      }
    }
    const cached = await this.readCache<T>({ op, query });
    if (cached) return cached;
    if (failure) throw failure;
    return null;
  }

  /** Calls a catalog operation on this system; the answer as main returns it (already redacted). */
  async call<T>(op: string, params: CallParams = {}): Promise<T> {
    const res = await api().invoke('op:call', {
      site: this.siteId,
      system: this.system,
      operation: op,
      ...(params.query ? { query: params.query } : {}),
      ...(params.body !== undefined ? { body: params.body } : {}),
      ...(params.headers && Object.keys(params.headers).length > 0 ? { headers: params.headers } : {}),
      ...(params.callId ? { callId: params.callId } : {}),
    });
    return res.result as T;
  }

  /**
   * A write (anything the catalog marks `writes`): refused here when the system is read-only; then,
   * unless `refresh: false`, refreshes the system in the background so the views show its effect.
   */
  async write<T>(op: string, params: CallParams & { refresh?: boolean } = {}): Promise<T> {
    const reason = this.readOnly;
    if (reason) throw new Error(`read-only: ${reason}`);
    const result = await this.call<T>(op, params);
    if (params.refresh !== false) void this.fleet.refresh({ siteId: this.siteId, system: this.system });
    return result;
  }
}
