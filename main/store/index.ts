export {
  openDatabase,
  openLogDatabase,
  openReportsDatabase,
  openSqlite,
  SCHEMA_VERSION,
  DATABASE_FILE,
  ACTION_LOG_FILE,
  REPORTS_FILE,
  BUSY_TIMEOUT_MS,
} from './open.js';
export type { Database } from './driver.js';
export {
  OfflineCache,
  cacheKey,
  DEFAULT_CACHE_MAX_BYTES,
  type CacheQuery,
  type CacheEntry,
  type CacheEntryInfo,
  type CachedSystem,
  type OfflineCacheOptions,
} from './offline-cache.js';
export {
  ActionLog,
  hashAction,
  unusableLog,
  GENESIS_HASH,
  NO_OUTCOME_MESSAGE,
  type ActionInput,
  type ActionRecord,
  type ActionResult,
  type ActionLogQuery,
  actionFilterSql,
  type ActionLogOptions,
  type HashedFields,
  type HashedRecord,
  type PendingWrite,
  type VerifyProblem,
  type VerifyResult,
  type WriteIntent,
  type WriteOutcome,
  type WriteResult,
} from './action-log.js';
export { openStores, startNewLog, moveAside, type DataStores, type OpenStoresOptions } from './stores.js';
export { StoreError, type StoreFailure } from './store-error.js';
export { SiteStore, SITES_FILE, SITES_FILE_VERSION, IMPORTED_SUFFIX, DEFAULT_POLLING, type NewSite, type SitePatch, type SiteStoreOptions } from './site-store.js';
export { resolveDataDir, ensureDataDir, APP_FOLDER, type DataDirSources } from './data-dir.js';
