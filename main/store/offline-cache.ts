import { hash } from 'node:crypto';
import { REDACTED, isSecretField, redactedJson } from '../../app/redact.js';
import type { Database } from './driver.js';
import { markDamaged } from './data-dir.js';
import { DataVersionMemo } from './data-version-memo.js';
import { StoreError, failureOf, storeError } from './store-error.js';

/** Default bound on the cache's stored values: 256 MiB. */
export const DEFAULT_CACHE_MAX_BYTES = 256 * 1024 * 1024;

/** Eviction brings the cache down to this fraction of its bound, so the next puts do not evict again at once. */
const EVICT_TO_FRACTION = 0.9;

/**
 * How exact the LRU order is for puts: a put records its entry's use only when the use this
 * connection last recorded of it is older than this (as `relatime` writes access times), so a
 * system polled every minute writes its uses once in ten polls, not at each. Eviction, which takes
 * the oldest tenth or so of a full cache, does not need the order of the last minutes.
 */
export const USE_PRECISION_MS = 10 * 60_000;

/** A query as a plain object or as the wire list of `[name, value]` pairs (`buildQuery` output). */
export type CacheQuery = Readonly<Record<string, unknown>> | ReadonlyArray<readonly [string, unknown]>;

/**
 * The cache key of a read: the operation key plus a canonical query string, e.g.
 * `GET /hosts/list?mapping=true`. Parameters are sorted by name (repeated values keep their order:
 * it may matter to the server), `undefined` is left out, values are percent-encoded. The value of a
 * secret parameter is replaced by `[redacted]` because keys are written to disk too.
 */
export function cacheKey(opKey: string, query: CacheQuery = {}): string {
  const pairs: Array<[string, string]> = [];
  const entries: ReadonlyArray<readonly [string, unknown]> = Array.isArray(query) ? query : Object.entries(query);
  for (const [name, value] of entries) {
    for (const v of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (v === undefined) continue;
      pairs.push([name, isSecretField(name) ? REDACTED : scalarText(v)]);
    }
  }
  if (pairs.length === 0) return opKey;
  // Array.prototype.sort is stable: repeated keys stay in the caller's order.
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `${cacheKeyPrefix(opKey)}${pairs.map(([n, v]) => `${encodeKeyPart(n)}=${encodeKeyPart(v)}`).join('&')}`;
}

const READ_KEYS = new WeakMap<{ op: string; query: Record<string, unknown> }, string>();
/**
 * {@link cacheKey} of a read object, made once per object: the reads readers ask with (the refresh
 * plan's, a baseline's) are constants, asked about for every system at every poll. A read must not
 * be changed once asked about.
 */
export function readKey(read: { op: string; query: Record<string, unknown> }): string {
  let key = READ_KEYS.get(read);
  if (key === undefined) READ_KEYS.set(read, (key = cacheKey(read.op, read.query)));
  return key;
}

/**
 * What every key {@link cacheKey} makes of `opKey` with a query begins with (a key without one is
 * `opKey` alone), and no key of another operation: how a reader tells one operation's answers
 * among a system's keys without parsing them.
 */
export function cacheKeyPrefix(opKey: string): string {
  return `${opKey}?`;
}

/** Percent-encodes, first replacing lone surrogates (which encodeURIComponent refuses) with U+FFFD. */
function encodeKeyPart(text: string): string {
  return encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

function scalarText(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object' && v !== null) return JSON.stringify(v);
  return String(v);
}

export interface CacheEntry {
  /** The stored value, redacted. */
  value: unknown;
  /** ISO time the value was read from the system. */
  at: string;
  /** Size of the stored JSON text in bytes (UTF-8). */
  bytes: number;
}

/**
 * An answer ready to be stored ({@link OfflineCache.rowOf}): its key, redacted JSON text (none for an
 * `unchanged` one, {@link OfflineCache.renewRow}), size in bytes and read time (ISO); `value` the
 * answer itself when the writer asked to keep it and redaction masked nothing in it.
 */
export interface CacheRow {
  readonly key: string;
  readonly json: string | undefined;
  readonly bytes: number;
  readonly at: string;
  readonly value?: unknown;
}

export interface CacheEntryInfo {
  key: string;
  /** ISO time the value was read from the system. */
  at: string;
  bytes: number;
}

export interface CachedSystem {
  siteId: string;
  system: string;
  /** ISO time of the system's newest cached read. */
  at: string;
}

export interface OfflineCacheOptions {
  /** Connection from `openDatabase`. */
  db: Database;
  /** The cache's file, for messages ('' for a cache in memory). */
  file?: string | undefined;
  /** Source of "now"; injected so tests control times. */
  clock?: () => Date;
  /** Bound on the sum of stored value sizes, in bytes (UTF-8 JSON). Default 256 MiB. */
  maxBytes?: number;
  /**
   * Turns a value an earlier version stored as the system sent it (format 1) into what this version
   * stores (normalised answers, format 2), or `undefined` to drop it. Runs once per such entry, when
   * it is first read; without it, old entries are served as they are.
   */
  upgrade?: (key: string, value: unknown) => unknown;
}

/** Format of the values this version stores: normalised answers. */
const FORMAT = 2;

/**
 * The last result of every read, per site and system, with the time it was read: what views show
 * when a system is unreachable or the app starts offline. Values are redacted before they are
 * written, so secrets never reach disk. Size-bounded with least-recently-used eviction.
 */
export class OfflineCache {
  readonly maxBytes: number;
  /** The cache's file ('' in memory). */
  readonly file: string;
  private readonly db: Database;
  private readonly clock: () => Date;
  private readonly stmts: Statements;
  private readonly upgrade: ((key: string, value: unknown) => unknown) | undefined;
  /**
   * What this connection knows the file holds, per system: each answer's read time (ms), content
   * version and, once it wrote or compared the answer, its stored text's digest. A poll's start
   * reads the times here instead of the system's rows, the readers of its status event the versions,
   * and an answer whose digest is the one held only takes its new read time: its text is neither
   * handed to SQLite nor compared there. Kept right by every write
   * and delete of this class; dropped whole when another connection (the app, the CLI) has
   * committed to the file since (SQLite's `data_version`), as it may have changed any answer. So a
   * connection has one OfflineCache: a second one on it would write unseen.
   */
  private readonly memo: DataVersionMemo<Map<string, Map<string, HeldAnswer>>>;
  /**
   * The read times and versions last handed out of a system's held answers (see {@link readTimes},
   * {@link versions}): a poll and its status event's readers ask for them several times between two
   * writes. Dropped by every change to the held answers they were made from. Kept for the systems
   * whose maps were made last ({@link VIEWS_KEPT}), as those are the ones polled now: a copy of every
   * system's would hold megabytes for a fleet to save a copy per poll.
   */
  private readonly views = new Map<Map<string, HeldAnswer>, { times?: ReadonlyMap<string, number>; versions?: ReadonlyMap<string, number> }>();
  constructor(options: OfflineCacheOptions) {
    this.db = options.db;
    this.upgrade = options.upgrade;
    this.file = options.file ?? '';
    this.clock = options.clock ?? (() => new Date());
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    if (!Number.isFinite(this.maxBytes) || this.maxBytes <= 0) throw new RangeError(`cache maxBytes must be a positive number of bytes, got ${this.maxBytes}`);
    this.stmts = prepareStatements(this.db);
    this.memo = new DataVersionMemo(this.db);
  }

  /** What is held ({@link memo}) as last checked, for this class's own writes and deletes to keep right. */
  private get held(): Map<string, Map<string, HeldAnswer>> {
    return this.memo.held() ?? new Map();
  }

  /**
   * Stores the result of a read, replacing the previous one for the same key. The value is stored
   * as JSON with every secret field masked (as `redact()` does, without copying the value). If the
   * cache then exceeds `maxBytes`, least-recently-used entries (by put or get, a put's use to within
   * {@link USE_PRECISION_MS}) are evicted down to about 90 % of it; the entry just written is never
   * evicted, even when it alone exceeds the bound.
   *
   * @param key from {@link cacheKey}
   * @param at when the value was read from the system, a Date or ISO string (default: now)
   * @throws TypeError when the value cannot be serialised as JSON (undefined, a function, a BigInt)
   *   or `at` is not a valid time
   */
  put(siteId: string, system: string, key: string, value: unknown, at: Date | string = this.clock()): void {
    this.putRows(siteId, system, [this.rowOf(key, value, at, true)]);
  }

  /**
   * An answer as {@link putRows} stores it: its redacted JSON text, made at once. A full refresh
   * turns each answer into its row when it arrives, so the parsed answer (several times the size of
   * its text) does not wait in memory for its system's transaction; a poll (a few small answers)
   * keeps the value (`keepValue`) for the readers of its status event.
   * @throws TypeError as {@link put} does
   */
  rowOf(key: string, value: unknown, at: Date | string = this.clock(), keepValue = false): CacheRow {
    const json: unknown = redactedJson(value);
    if (typeof json !== 'string') throw new TypeError(`cache value for ${key} is not JSON-serialisable`);
    const row = { key, json, bytes: Buffer.byteLength(json, 'utf8'), at: isoReadTime(key, at) };
    // The value itself only when redaction masked nothing in it (its text holds no mask), so that
    // it is what parsing the stored text gives (normalised answers hold no undefined or null member).
    return keepValue && !json.includes(REDACTED) ? { ...row, value } : row;
  }

  /**
   * A row for an answer its caller knows is the one held (same value): only its read time moves;
   * nothing is serialised or compared, and nothing is written when nothing is held under its key.
   */
  renewRow(key: string, at: Date | string = this.clock()): CacheRow {
    return { key, json: undefined, bytes: 0, at: isoReadTime(key, at) };
  }

  /**
   * Stores several answers of one system, as rows made by {@link rowOf} and {@link renewRow}, in one
   * transaction (one commit per system's refresh or poll instead of one per answer), each as {@link put}
   * would; none of them is evicted by the others. An answer identical to the one held (same stored
   * text) keeps its content version and only takes the new read time: the data age a view shows is
   * still when it was last read from the system.
   *
   * `alongside` is another write on this cache's connection, run in the same transaction after the
   * answers (a refresh's end records the system's outcome there): another connection sees both or
   * neither, and a failure of either leaves neither. With it, the transaction runs even without rows.
   */
  putRows(siteId: string, system: string, rows: readonly CacheRow[], alongside?: () => void): void {
    if (rows.length === 0 && !alongside) return;
    const now = this.clock().toISOString();
    const nowMs = Date.parse(now);
    // IMMEDIATE: another process sharing the file cannot slip in between the upsert and the size check.
    const id = systemId(siteId, system);
    this.guard('store an answer in', () =>
      this.db
        .transaction(() => {
          // Checked under the write lock: no other connection commits between this and the writes,
          // so what is held is what the file holds (an answer held is an answer stored).
          const held = this.heldOf(siteId, system);
          this.views.delete(held);
          // The texts to store, by key (a key's last one), written once the loop knows how many.
          const texts = new Map<string, CacheRow>();
          // The keys whose use is recorded now (see USE_PRECISION_MS), in the rows' order.
          const used: string[] = [];
          const use = (key: string, h: HeldAnswer): void => {
            // Recorded within the precision (either way: a clock set back far enough records again).
            if (h.usedAt !== undefined && Math.abs(nowMs - h.usedAt) < USE_PRECISION_MS) return;
            h.usedAt = nowMs;
            used.push(key);
          };
          for (const r of rows) {
            const at = Date.parse(r.at);
            const before = held.get(r.key);
            // A text of this write still to be stored under the key: a later row only moves its time.
            const pending = texts.get(r.key);
            if (r.json === undefined) {
              // Nothing held under the key: nothing to renew.
              if (!before) continue;
              if (pending) texts.set(r.key, { ...pending, at: r.at });
              else this.stmts.renew.run(r.at, siteId, system, r.key);
              before.at = at;
              use(r.key, before);
              continue;
            }
            const digest = textDigest(r.json);
            // The same text as held, known by its digest or compared by SQLite (nothing read back
            // here): only the read time moves. A text known to differ, or an answer known to be
            // absent, is written without the comparison.
            const same =
              before === undefined
                ? false
                : pending !== undefined
                  ? before.digest === digest
                  : before.digest === undefined
                    ? this.stmts.touch.run(r.at, siteId, system, r.key, FORMAT, r.json).changes > 0
                    : before.digest === digest && this.stmts.renew.run(r.at, siteId, system, r.key).changes > 0;
            if (!same) texts.set(r.key, r);
            else if (pending) texts.set(r.key, { ...pending, at: r.at });
            // A text stored below takes its version there.
            const h: HeldAnswer = { at, digest, version: before?.version ?? 0, usedAt: before?.usedAt };
            held.set(r.key, h);
            use(r.key, h);
          }
          if (texts.size) {
            // One counter move for the whole write: each answer stored takes its own version.
            const last = this.stmts.nextVersions.get(texts.size)?.version ?? texts.size;
            let version = last - texts.size;
            for (const r of texts.values()) {
              this.stmts.upsert.run(siteId, system, r.key, r.json as string, r.bytes, r.at, FORMAT, ++version);
              const h = held.get(r.key);
              if (h) h.version = version;
            }
          }
          // Every use recorded in one statement, in the rows' order: one call instead of one per answer.
          if (used.length) this.stmts.useMany.run(siteId, system, now, JSON.stringify(used));
          // Only a stored text can take the cache past its bound.
          if (texts.size) this.evictIfNeeded(siteId, system, new Set(rows.map((r) => r.key)));
          alongside?.();
        })
        .immediate(),
      () => this.held.delete(id),
    );
  }

  /**
   * When each answer cached for one system was read (ms since the epoch), by key: what a poll
   * compares with its slow-read and SMART ages. Served from memory once this connection has read
   * or written the system (see {@link memo}); else one query of the rows' keys and times. Does not
   * count as use.
   */
  readTimes(siteId: string, system: string): ReadonlyMap<string, number> {
    return this.view(siteId, system, 'times', (h) => h.at);
  }

  /** One number of each answer held for a system, by key, as a map made once until the next change (see {@link views}). */
  private view(siteId: string, system: string, kind: 'times' | 'versions', of: (h: HeldAnswer) => number): ReadonlyMap<string, number> {
    const held = this.guard('read', () => this.heldOf(siteId, system));
    let views = this.views.get(held);
    if (!views) {
      // The one made first makes room (a Map iterates in insertion order).
      if (this.views.size >= VIEWS_KEPT) this.views.delete(this.views.keys().next().value as Map<string, HeldAnswer>);
      this.views.set(held, (views = {}));
    }
    let made = views[kind];
    if (!made) {
      const numbers = new Map<string, number>();
      for (const [key, h] of held) numbers.set(key, of(h));
      views[kind] = made = numbers;
    }
    return made;
  }

  /** Forgets one answer held for a system (deleted or evicted), and the views made of what was held. */
  private forgetHeld(siteId: string, system: string, key: string): void {
    const held = this.held.get(systemId(siteId, system));
    if (!held) return;
    held.delete(key);
    this.views.delete(held);
  }

  /** The system's held answers, read from its rows when not held (or when another connection wrote since). */
  private heldOf(siteId: string, system: string): Map<string, HeldAnswer> {
    const all = this.memo.get(nothingHeld);
    const id = systemId(siteId, system);
    let held = all.get(id);
    if (!held) {
      held = new Map();
      for (const e of this.stmts.readTimes.all(siteId, system)) held.set(e.key, { at: Date.parse(e.at), digest: undefined, version: e.version, usedAt: undefined });
      all.set(id, held);
    }
    return held;
  }

  /**
   * The content version of each answer cached for one system, by key: it changes when a put stores
   * a different value (or the entry is dropped and stored again), not when the same answer is read
   * again. Served from memory once this connection has read or written the system (see
   * {@link memo}); else one query of the rows' keys, times and versions. Does not count as use.
   */
  versions(siteId: string, system: string): ReadonlyMap<string, number> {
    return this.view(siteId, system, 'versions', (h) => h.version);
  }

  /**
   * The stored result of a read, marking it recently used (unless `recordUse` is false: a reader
   * that is not a view, such as the alert engine after every poll, must neither pay for a write per
   * read nor keep entries from eviction); `undefined` when nothing is cached.
   */
  get(siteId: string, system: string, key: string, options: { recordUse?: boolean } = {}): CacheEntry | undefined {
    const row = this.guard('read', () => this.stmts.read.get(siteId, system, key));
    if (!row) return undefined;
    const stored = row.format < FORMAT && this.upgrade ? this.upgraded(siteId, system, key, row.value, row.at, this.upgrade) : row;
    if (!stored) return undefined;
    if (options.recordUse !== false) this.recordUse(siteId, system, key);
    return { value: JSON.parse(stored.value) as unknown, at: stored.at, bytes: stored.bytes };
  }

  /**
   * Every answer cached for one system, by key, as stored JSON text (parse what you use): one query
   * instead of one per key, for a reader that wants most of a system's answers (a report reads
   * them all). Does not count as use; entries of an earlier format are upgraded as {@link get} does.
   */
  systemEntries(siteId: string, system: string): Map<string, { json: string; at: string; bytes: number }> {
    const out = new Map<string, { json: string; at: string; bytes: number }>();
    for (const row of this.guard('read', () => this.stmts.readSystem.all(siteId, system))) {
      const stored = row.format < FORMAT && this.upgrade ? this.upgraded(siteId, system, row.key, row.value, row.at, this.upgrade) : row;
      if (stored) out.set(row.key, { json: stored.value, at: stored.at, bytes: stored.bytes });
    }
    return out;
  }

  /** An entry of an earlier format, upgraded and stored again with its read time, or dropped (undefined). */
  private upgraded(siteId: string, system: string, key: string, json: string, at: string, upgrade: (key: string, value: unknown) => unknown): { value: string; at: string; bytes: number } | undefined {
    const value = upgrade(key, JSON.parse(json) as unknown);
    if (value === undefined) {
      this.guard('delete from', () => this.stmts.delete.run(siteId, system, key));
      this.forgetHeld(siteId, system, key);
      return undefined;
    }
    this.put(siteId, system, key, value, at);
    return this.guard('read', () => this.stmts.read.get(siteId, system, key));
  }

  /**
   * Like {@link get}, but the value as its stored JSON text, unparsed: what is sent on to the
   * renderer as it is. SQLite checks the text is well-formed JSON first (`json_valid`).
   * @throws Error naming the key when the stored text is damaged
   */
  getText(siteId: string, system: string, key: string, options: { recordUse?: boolean } = {}): { json: string; at: string; bytes: number } | undefined {
    const row = this.guard('read', () => this.stmts.readChecked.get(siteId, system, key));
    if (!row) return undefined;
    if (row.valid !== 1) throw new Error(`the cached answer for ${key} is damaged (not JSON); refresh the system to replace it`);
    const stored = row.format < FORMAT && this.upgrade ? this.upgraded(siteId, system, key, row.value, row.at, this.upgrade) : row;
    if (!stored) return undefined;
    if (options.recordUse !== false) this.recordUse(siteId, system, key);
    return { json: stored.value, at: stored.at, bytes: stored.bytes };
  }

  /**
   * Marks an entry used now (LRU order). Should another process delete the entry meanwhile, the
   * use row it leaves is harmless: eviction only walks uses that have an entry.
   */
  private recordUse(siteId: string, system: string, key: string): void {
    try {
      this.stmts.use.run(siteId, system, key, this.clock().toISOString());
    } catch (err) {
      // Another process held the write lock past the busy timeout: serve the value without
      // recording the use rather than fail an offline view over LRU bookkeeping.
      if (!isBusy(err)) throw this.failed(err, 'update');
    }
  }

  /** Keys cached for one system, with read time and size, sorted by key. Does not count as use. */
  entries(siteId: string, system: string): CacheEntryInfo[] {
    return this.guard('read', () => this.stmts.entries.all(siteId, system));
  }

  /** Every (site, system) with something cached and the time of its newest read. */
  systems(): CachedSystem[] {
    return this.guard('read', () => this.stmts.systems.all());
  }

  /** Forgets everything cached for a site (the site was removed). Returns the number of entries deleted. */
  deleteSite(siteId: string): number {
    const deleted = this.guard('delete from', () => this.stmts.deleteSite.run(siteId).changes);
    const prefix = systemId(siteId, '');
    for (const id of this.held.keys()) if (id.startsWith(prefix)) this.held.delete(id);
    return deleted;
  }

  /** Forgets everything cached for one system of a site. Returns the number of entries deleted. */
  deleteSystem(siteId: string, system: string): number {
    const deleted = this.guard('delete from', () => this.stmts.deleteSystem.run(siteId, system).changes);
    this.held.delete(systemId(siteId, system));
    return deleted;
  }

  /** Sum of stored value sizes in bytes (UTF-8 JSON; SQLite's own overhead not counted). */
  sizeBytes(): number {
    return this.stmts.size.get()?.bytes ?? 0;
  }

  /**
   * Runs a statement; its failure becomes a StoreError naming the file and what to do. `undo` runs
   * first on a failure (a write rolled back: what is held of it is dropped).
   */
  private guard<T>(what: string, task: () => T, undo?: () => void): T {
    try {
      return task();
    } catch (err) {
      undo?.();
      throw this.failed(err, what);
    }
  }

  private failed(err: unknown, what: string): Error {
    if (err instanceof TypeError || err instanceof RangeError || err instanceof StoreError) return err;
    const where = this.file || 'the offline cache in memory';
    if (failureOf(err) === 'damaged' && this.file) {
      // Found while running: the next start moves the file aside and rebuilds it.
      markDamaged(this.file);
      return new StoreError(
        `cannot ${what} ${where} (the offline cache): ${(err as Error).message}; it is moved aside and rebuilt when Fleetdeck next starts (quit and start it again)`,
        this.file,
        'damaged',
        { cause: err },
      );
    }
    return storeError(err, where, what, 'the offline cache');
  }

  private evictIfNeeded(siteId: string, system: string, keep: ReadonlySet<string>): void {
    let size = this.sizeBytes();
    if (size <= this.maxBytes) return;
    const target = Math.floor(this.maxBytes * EVICT_TO_FRACTION);
    const victims: Array<[string, string, string]> = [];
    // Collect first, delete after: a statement cannot be modified while its cursor is open.
    for (const row of this.stmts.lru.iterate()) {
      if (size <= target) break;
      if (row.site_id === siteId && row.system === system && keep.has(row.key)) continue;
      victims.push([row.site_id, row.system, row.key]);
      size -= row.bytes;
    }
    for (const [s, y, k] of victims) {
      this.stmts.delete.run(s, y, k);
      this.forgetHeld(s, y, k);
    }
  }
}

/** How many systems' read times and versions the cache keeps made (see `OfflineCache.views`): more than a fleet's polls run at once. */
const VIEWS_KEPT = 128;

/**
 * What {@link OfflineCache} holds of a stored answer: its read time (ms), content version, its
 * text's digest when known, and when this connection last recorded its use by a put (ms), if it did.
 */
interface HeldAnswer {
  at: number;
  digest: string | undefined;
  version: number;
  usedAt: number | undefined;
}

const nothingHeld = (): Map<string, Map<string, HeldAnswer>> => new Map();

function systemId(siteId: string, system: string): string {
  return `${siteId}\u0000${system}`;
}

/** A stored text's digest: equal digests, equal texts. */
function textDigest(json: string): string {
  // One call, no Hash object: a poll takes a digest per answer.
  return hash('sha256', json, 'base64');
}

/** A read time as stored (ISO). @throws TypeError when it is not a valid time */
function isoReadTime(key: string, at: Date | string): string {
  const readAt = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(readAt.getTime())) throw new TypeError(`cache time for ${key} is not a valid date: ${String(at)}`);
  return readAt.toISOString();
}

function isBusy(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' && err.code.startsWith('SQLITE_BUSY');
}

type Statements = ReturnType<typeof prepareStatements>;

function prepareStatements(db: Database) {
  const nextUse = '(SELECT COALESCE(MAX(use_seq), 0) + 1 FROM cache_use)';
  return {
    // The version a changed answer takes: one of those nextVersions reserved.
    upsert: db.prepare<[string, string, string, string, number, string, number, number]>(
      `INSERT INTO cache_entries (site_id, system, key, value, bytes, at, format, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (site_id, system, key) DO UPDATE SET value = excluded.value, bytes = excluded.bytes, at = excluded.at, format = excluded.format, version = excluded.version`,
    ),
    renew: db.prepare<[string, string, string, string]>('UPDATE cache_entries SET at = ? WHERE site_id = ? AND system = ? AND key = ?'),
    // Reserves n content versions: the last of them is returned.
    nextVersions: db.prepare<[number], { version: number }>('UPDATE cache_size SET version = version + ? WHERE id = 1 RETURNING version'),
    touch: db.prepare<[string, string, string, string, number, string]>(
      'UPDATE cache_entries SET at = ? WHERE site_id = ? AND system = ? AND key = ? AND format = ? AND value = ?',
    ),
    // Recording a use touches only cache_use: the (possibly large) value is not rewritten.
    use: db.prepare<[string, string, string, string]>(
      `INSERT INTO cache_use (site_id, system, key, last_read_at, use_seq) VALUES (?, ?, ?, ?, ${nextUse})
       ON CONFLICT (site_id, system, key) DO UPDATE SET last_read_at = excluded.last_read_at, use_seq = excluded.use_seq`,
    ),
    useMany: db.prepare<[string, string, string, string]>(
      `INSERT INTO cache_use (site_id, system, key, last_read_at, use_seq)
       SELECT ?1, ?2, j.value, ?3, (SELECT COALESCE(MAX(use_seq), 0) FROM cache_use) + j.key + 1 FROM json_each(?4) AS j WHERE true
       ON CONFLICT (site_id, system, key) DO UPDATE SET last_read_at = excluded.last_read_at, use_seq = excluded.use_seq`,
    ),
    read: db.prepare<[string, string, string], { value: string; at: string; bytes: number; format: number }>(
      'SELECT value, at, bytes, format FROM cache_entries WHERE site_id = ? AND system = ? AND key = ?',
    ),
    readSystem: db.prepare<[string, string], { key: string; value: string; at: string; bytes: number; format: number }>(
      'SELECT key, value, at, bytes, format FROM cache_entries WHERE site_id = ? AND system = ?',
    ),
    readChecked: db.prepare<[string, string, string], { value: string; at: string; bytes: number; valid: number; format: number }>(
      'SELECT value, at, bytes, json_valid(value) AS valid, format FROM cache_entries WHERE site_id = ? AND system = ? AND key = ?',
    ),
    readTimes: db.prepare<[string, string], { key: string; at: string; version: number }>('SELECT key, at, version FROM cache_entries WHERE site_id = ? AND system = ?'),
    entries: db.prepare<[string, string], CacheEntryInfo>(
      'SELECT key, at, bytes FROM cache_entries WHERE site_id = ? AND system = ? ORDER BY key',
    ),
    systems: db.prepare<[], CachedSystem>(
      'SELECT site_id AS siteId, system, MAX(at) AS at FROM cache_entries GROUP BY site_id, system ORDER BY site_id, system',
    ),
    size: db.prepare<[], { bytes: number }>('SELECT bytes FROM cache_size WHERE id = 1'),
    lru: db.prepare<[], { site_id: string; system: string; key: string; bytes: number }>(
      'SELECT e.site_id, e.system, e.key, e.bytes FROM cache_use u JOIN cache_entries e USING (site_id, system, key) ORDER BY u.use_seq',
    ),
    delete: db.prepare<[string, string, string]>('DELETE FROM cache_entries WHERE site_id = ? AND system = ? AND key = ?'),
    deleteSite: db.prepare<[string]>('DELETE FROM cache_entries WHERE site_id = ?'),
    deleteSystem: db.prepare<[string, string]>('DELETE FROM cache_entries WHERE site_id = ? AND system = ?'),
  };
}
