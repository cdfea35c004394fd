import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { normaliseStoredAnswer } from '../../app/answers/normalise.js';
import { ActionLog, unusableLog } from './action-log.js';
import {
  ACTION_LOG_FILE,
  ALERTS_DATABASE,
  ALERTS_FILE,
  CACHE_DATABASE,
  DATABASE_FILE,
  REPORTS_DATABASE,
  REPORTS_FILE,
  openAlertsDatabase,
  openDatabase,
  openLogDatabase,
  openMemoryDatabase,
  openReportsDatabase,
  type DatabaseSpec,
} from './open.js';
import type { Database } from './driver.js';
import { DAMAGED_SUFFIX, ensureDataDir, fsyncDir } from './data-dir.js';
import { OfflineCache } from './offline-cache.js';
import { StoreError, failureOf, storeError } from './store-error.js';

/** The data directory's three databases, each in its own file so one damaged file stops nothing else. */
export interface DataStores {
  dataDir: string;
  /** Offline cache connection (`fleetdeck.db`, or memory for this run when the file cannot be used). */
  cacheDb: Database;
  cache: OfflineCache;
  /** The action log (`actions.db`); refuses writes when the file is damaged, missing or not writable. */
  actionLog: ActionLog;
  /** The action log's connection (its syslog outbox lives there); undefined when the log is unusable. */
  logDb: Database | undefined;
  /** Report history connection (`reports.db`, or memory for this run). */
  reportsDb: Database;
  /** Alerts and their rules (`alerts.db`, or memory for this run). */
  alertsDb: Database;
  /** What happened to the files on opening (moved aside, rebuilt, kept in memory, log unusable), one sentence each. */
  warnings: string[];
  close(): void;
}

export interface OpenStoresOptions {
  clock?: () => Date;
  /** Bound of the offline cache in bytes (default: the cache's own). */
  cacheMaxBytes?: number;
}

/**
 * Opens the data directory (created 0700, narrowed to 0700 when looser) and its databases:
 *
 * - `fleetdeck.db`, the offline cache: when damaged (not a database, malformed, emptied, or marked
 *   by a damage seen while running) it is moved aside under a name the warning gives and rebuilt
 *   empty: the next refresh fills it again. When it cannot be opened for another reason (read-only
 *   or full disk, locked), answers are cached in memory for this run, with a warning.
 * - `actions.db`, the action log: never replaced. Damaged, emptied or missing (when the directory
 *   was used before), it is reported, and every write is refused until the admin restores it or
 *   runs `fleetdeck log start-new` ({@link startNewLog}); reading commands keep working.
 * - `reports.db`, the report history: like the cache (moved aside and started again when damaged).
 * - `alerts.db`, alerts and their rules: like the report history; the damaged copy is kept (the rule
 *   changes are in the action log too), and the next refresh raises what is still wrong again.
 *
 * @throws StoreError only when the data directory itself cannot be created.
 */
export function openStores(dataDir: string, options: OpenStoresOptions = {}): DataStores {
  try {
    ensureDataDir(dataDir);
  } catch (err) {
    throw storeError(err, dataDir, 'create the data directory', 'Fleetdeck data');
  }
  const warnings: string[] = [];
  const cacheFile = path.join(dataDir, DATABASE_FILE);
  const logFile = path.join(dataDir, ACTION_LOG_FILE);
  // A log is created only in a directory never used before, and before the cache: so a cache
  // without a log next to it always means the log was lost (or still sits inside a cache from
  // before the split, which opening the cache moves out), even when processes start together.
  let logFailure: unknown;
  if (!fs.existsSync(cacheFile) && !fs.existsSync(logFile)) {
    try {
      openLogDatabase(dataDir).close();
    } catch (err) {
      logFailure = err;
    }
  }
  const cacheOpen = openRebuildable(cacheFile, CACHE_DATABASE, () => openDatabase(dataDir), 'the next refresh fills it again', warnings);
  let actionLog: ActionLog;
  let logDb: Database | undefined;
  try {
    if (logFailure) throw logFailure;
    const db = openLogDatabase(dataDir, { create: false });
    try {
      actionLog = new ActionLog({ db, file: logFile, ...(options.clock ? { clock: options.clock } : {}) });
      logDb = db;
    } catch (err) {
      db.close();
      throw err;
    }
  } catch (err) {
    const cause = err instanceof StoreError && err.reason === 'missing' && cacheOpen.failure ? cacheOpen.failure : err;
    let problem = unusableLog(cause, logFile);
    if (cacheOpen.movedAside && failureOf(cause) === 'missing') {
      problem = new StoreError(
        `${problem.message}. If this data directory was last used by a Fleetdeck that kept the log inside ${DATABASE_FILE}, it is in the damaged copy kept as ${cacheOpen.movedAside}`,
        logFile,
        'missing',
        { cause: err },
      );
    }
    actionLog = new ActionLog({ problem, file: logFile });
    warnings.push(problem.message);
  }
  const reportsFile = path.join(dataDir, REPORTS_FILE);
  const reportsOpen = openRebuildable(reportsFile, REPORTS_DATABASE, () => openReportsDatabase(dataDir), 'reports generated from now on are kept in it', warnings);
  const alertsFile = path.join(dataDir, ALERTS_FILE);
  const alertsOpen = openRebuildable(alertsFile, ALERTS_DATABASE, () => openAlertsDatabase(dataDir), 'the next refresh raises what is still wrong again; rule overrides are in the damaged copy and in the action log', warnings);
  let closed = false;
  const cache = new OfflineCache({
    db: cacheOpen.db,
    file: cacheOpen.inMemory ? '' : cacheFile,
    upgrade: normaliseStoredAnswer,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.cacheMaxBytes ? { maxBytes: options.cacheMaxBytes } : {}),
  });
  return {
    dataDir,
    cacheDb: cacheOpen.db,
    cache,
    actionLog,
    logDb,
    reportsDb: reportsOpen.db,
    alertsDb: alertsOpen.db,
    warnings,
    close: () => {
      if (closed) return;
      closed = true;
      actionLog.close();
      cacheOpen.db.close();
      reportsOpen.db.close();
      alertsOpen.db.close();
    },
  };
}

interface Opened {
  db: Database;
  inMemory: boolean;
  /** Where a damaged file was moved. */
  movedAside?: string | undefined;
  /** Why the file could not be used (not damage), when kept in memory. */
  failure?: StoreError | undefined;
}

/** Opens a file that may be rebuilt: damaged → moved aside and created again; unusable → memory. */
function openRebuildable(file: string, spec: DatabaseSpec, open: () => Database, afterRebuild: string, warnings: string[]): Opened {
  const marker = `${file}${DAMAGED_SUFFIX}`;
  let movedAside: string | undefined;
  try {
    if (fs.existsSync(marker)) {
      movedAside = moveAside(file);
      fs.rmSync(marker, { force: true });
      warnings.push(`${file} (${spec.label}) was found damaged during an earlier run: moved aside as ${movedAside} and rebuilt; ${afterRebuild}`);
    }
    return { db: open(), inMemory: false, movedAside };
  } catch (err) {
    let failure = err instanceof StoreError ? err : storeError(err, file, 'open', spec.label);
    if (failure.reason === 'damaged' && movedAside === undefined) {
      try {
        movedAside = moveAside(file);
        const db = open();
        warnings.push(`${file} (${spec.label}) was damaged (${failure.message}): moved aside as ${movedAside} and rebuilt; ${afterRebuild}`);
        return { db, inMemory: false, movedAside };
      } catch (again) {
        failure = storeError(again, file, 'rebuild', spec.label);
      }
    }
    warnings.push(`${failure.message}; until then ${spec.label} is kept in memory for this run only`);
    return { db: openMemoryDatabase(spec), inMemory: true, movedAside, failure };
  }
}

/**
 * Renames a damaged database (with its WAL) to `<file>.damaged-<UTC time>` and drops its shared-memory
 * index; returns the new name. The content is kept for whoever wants to look into it.
 */
export function moveAside(file: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  let aside = `${file}${DAMAGED_SUFFIX}-${stamp}`;
  for (let n = 2; fs.existsSync(aside); n++) aside = `${file}${DAMAGED_SUFFIX}-${stamp}-${n}`;
  if (fs.existsSync(file)) fs.renameSync(file, aside);
  if (fs.existsSync(`${file}-wal`)) fs.renameSync(`${file}-wal`, `${aside}-wal`);
  fs.rmSync(`${file}-shm`, { force: true });
  fsyncDir(path.dirname(file));
  return aside;
}

/**
 * `fleetdeck log start-new`: when the action log is damaged, emptied or missing, keeps the file
 * aside and starts a new log whose first record names it, its SHA-256 and the reason, by `user`.
 * @throws StoreError when the log is usable (nothing to do: a failed `log verify` is evidence to keep,
 *   not damage) or the new log cannot be written.
 */
export function startNewLog(dataDir: string, user: string, clock?: () => Date): { keptAs?: string | undefined; sha256?: string | undefined; reason: string } {
  const file = path.join(dataDir, ACTION_LOG_FILE);
  let reason: string;
  try {
    const db = openLogDatabase(dataDir, { create: false });
    const log = new ActionLog({ db, file });
    try {
      log.count();
    } finally {
      db.close();
    }
    if (!log.unusable) {
      throw new StoreError(`${file} (the action log) can be read: there is nothing to start again. A failed "fleetdeck log verify" is evidence to keep, not damage`, file, 'io');
    }
    reason = log.unusable.message;
  } catch (err) {
    if (err instanceof StoreError && err.reason !== 'damaged' && err.reason !== 'missing') throw err;
    if (!(err instanceof StoreError) && failureOf(err) !== 'damaged') throw storeError(err, file, 'open', 'the action log');
    reason = err instanceof Error ? err.message : String(err);
  }
  let keptAs: string | undefined;
  let sha256: string | undefined;
  if (fs.existsSync(file)) {
    sha256 = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    keptAs = moveAside(file, clock?.());
  }
  const db = openLogDatabase(dataDir, { create: true });
  try {
    new ActionLog({ db, file, ...(clock ? { clock } : {}) }).recordRestart({
      user,
      reason: `new action log started by ${user}: ${keptAs ? `the previous file was kept as ${path.basename(keptAs)}` : 'the previous file was missing'} (${reason})`,
      previousFile: keptAs ? path.basename(keptAs) : undefined,
      previousSha256: sha256,
    });
  } finally {
    db.close();
  }
  return { keptAs, sha256, reason };
}
