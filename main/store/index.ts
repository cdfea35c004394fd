export { openDatabase, SCHEMA_VERSION, DATABASE_FILE, BUSY_TIMEOUT_MS, type Database } from './database.js';
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
  GENESIS_HASH,
  type ActionInput,
  type ActionRecord,
  type ActionResult,
  type ActionLogQuery,
  type ActionLogOptions,
  type HashedFields,
  type VerifyProblem,
  type VerifyResult,
} from './action-log.js';
export { SiteStore, SITES_FILE, SITES_FILE_VERSION, DEFAULT_POLLING, type NewSite, type SitePatch, type SiteStoreOptions } from './site-store.js';
export { resolveDataDir, APP_FOLDER, type DataDirSources } from './data-dir.js';
