/*
 * Every schema of the data directory's SQLite files, as migration lists: entry i of a list brings
 * its file from schema version i to i + 1 (SQLite `user_version`). The lists are append-only: an
 * installed app has already run the shipped entries, so a change is a new entry at the end, never
 * an edit. `open.ts` applies them; nothing else holds SQL that creates or alters a table.
 */


/** Keep cache_size.bytes equal to the sum of cache_entries.bytes (both cache schemas). */
const CACHE_SIZE_TRIGGERS = `CREATE TRIGGER cache_size_insert AFTER INSERT ON cache_entries BEGIN
    UPDATE cache_size SET bytes = bytes + NEW.bytes WHERE id = 1;
  END;
  CREATE TRIGGER cache_size_update AFTER UPDATE OF bytes ON cache_entries BEGIN
    UPDATE cache_size SET bytes = bytes - OLD.bytes + NEW.bytes WHERE id = 1;
  END;`;

/** Triggers keeping the action log append-only. */
const ACTION_LOG_TRIGGERS = `CREATE TRIGGER action_log_no_update BEFORE UPDATE ON action_log BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: rows cannot be changed');
  END;
  CREATE TRIGGER action_log_no_delete BEFORE DELETE ON action_log BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: rows cannot be deleted');
  END;`;

/** Triggers keeping the action log append-only, and the head of its chain (both log schemas). */
const ACTION_LOG_APPEND_ONLY = `${ACTION_LOG_TRIGGERS}

  -- Head of the chain (last seq and hash), written in the same transaction as each append. Appends
  -- continue from here rather than from the last row, so a truncated tail shows up as a gap.
  CREATE TABLE action_log_head (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    seq  INTEGER NOT NULL,
    hash TEXT    NOT NULL
  );`;

/** The report history's table (both places it has lived). */
const REPORTS_TABLE = `CREATE TABLE reports (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    kind         TEXT    NOT NULL,
    title        TEXT    NOT NULL,
    generated_at TEXT    NOT NULL,   -- ISO time the report was built
    generated_by TEXT    NOT NULL,   -- OS user
    source       TEXT    NOT NULL CHECK (source IN ('cache', 'fresh')),
    sites        TEXT    NOT NULL,   -- JSON [{id, name}] of the sites in scope
    systems      INTEGER NOT NULL,   -- number of systems in scope
    model        TEXT    NOT NULL,   -- the report model as JSON, already redacted
    sha256       TEXT    NOT NULL    -- of model
  );
  CREATE INDEX reports_generated_at ON reports (generated_at);`;

/**
 * Migrations of the offline cache (`fleetdeck.db`) in order: entry i brings the schema from version
 * i to i + 1. Never edit a shipped entry; append a new one (an installed app has already run the
 * old ones). Versions 1–3 also held the action log and the report history; version 4 moved them
 * to their own files (`actions.db`, `reports.db`): `splitLegacyTables` in open.ts copies them over.
 */
export const MIGRATIONS: readonly string[] = [
  `
  -- Offline cache: the last result of every read, per (site, system, key).
  CREATE TABLE cache_entries (
    site_id      TEXT    NOT NULL,
    system       TEXT    NOT NULL,
    key          TEXT    NOT NULL,
    value        TEXT    NOT NULL,   -- JSON, already redacted
    bytes        INTEGER NOT NULL,   -- UTF-8 length of value
    at           TEXT    NOT NULL,   -- ISO time the value was read from the system
    last_read_at TEXT    NOT NULL,   -- ISO time of the last put or get
    use_seq      INTEGER NOT NULL,   -- logical clock of the last put or get: LRU order
    PRIMARY KEY (site_id, system, key)
  ) WITHOUT ROWID;
  CREATE INDEX cache_entries_lru ON cache_entries (use_seq);

  -- Running total of cache_entries.bytes, kept by triggers so the size check after each put is O(1).
  CREATE TABLE cache_size (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    bytes INTEGER NOT NULL
  );
  INSERT INTO cache_size (id, bytes) VALUES (1, 0);
${CACHE_SIZE_TRIGGERS}
  CREATE TRIGGER cache_size_delete AFTER DELETE ON cache_entries BEGIN
    UPDATE cache_size SET bytes = bytes - OLD.bytes WHERE id = 1;
  END;

  -- Action log: every write the app performs, hash-chained.
  CREATE TABLE action_log (
    seq       INTEGER PRIMARY KEY,
    at        TEXT NOT NULL,
    user      TEXT NOT NULL,
    site_id   TEXT NOT NULL,
    system    TEXT NOT NULL,
    operation TEXT NOT NULL,
    params    TEXT NOT NULL,   -- canonical JSON, already redacted
    result    TEXT NOT NULL CHECK (result IN ('ok', 'error')),
    message   TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash      TEXT NOT NULL
  );
  CREATE INDEX action_log_site_at ON action_log (site_id, at);
  CREATE INDEX action_log_at ON action_log (at);
  ${ACTION_LOG_APPEND_ONLY}
  `,
  `
  -- Report history: every generated report with its model, so it can be reopened, exported again
  -- and compared with another one.
  ${REPORTS_TABLE}
  `,
  `
  -- The offline cache, rebuilt. Values can be megabytes: they move to a rowid table (SQLite's
  -- WITHOUT ROWID layout is meant for small rows; a key lookup there walked the whole value), and
  -- the read bookkeeping moves to its own small table, so recording a read leaves the value alone.
  CREATE TABLE cache_entries_v2 (
    id      INTEGER PRIMARY KEY,
    site_id TEXT    NOT NULL,
    system  TEXT    NOT NULL,
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,   -- JSON, already redacted
    bytes   INTEGER NOT NULL,   -- UTF-8 length of value
    at      TEXT    NOT NULL,   -- ISO time the value was read from the system
    UNIQUE (site_id, system, key)
  );
  INSERT INTO cache_entries_v2 (site_id, system, key, value, bytes, at)
    SELECT site_id, system, key, value, bytes, at FROM cache_entries;
  CREATE TABLE cache_use (
    site_id      TEXT    NOT NULL,
    system       TEXT    NOT NULL,
    key          TEXT    NOT NULL,
    last_read_at TEXT    NOT NULL,   -- ISO time of the last put or get
    use_seq      INTEGER NOT NULL,   -- logical clock of the last put or get: LRU order
    PRIMARY KEY (site_id, system, key)
  ) WITHOUT ROWID;
  INSERT INTO cache_use (site_id, system, key, last_read_at, use_seq)
    SELECT site_id, system, key, last_read_at, use_seq FROM cache_entries;
  CREATE INDEX cache_use_lru ON cache_use (use_seq);
  -- Dropping the old table drops its index and triggers (and fires none): cache_size stays right.
  DROP TABLE cache_entries;
  ALTER TABLE cache_entries_v2 RENAME TO cache_entries;
${CACHE_SIZE_TRIGGERS}
  CREATE TRIGGER cache_size_delete AFTER DELETE ON cache_entries BEGIN
    UPDATE cache_size SET bytes = bytes - OLD.bytes WHERE id = 1;
    DELETE FROM cache_use WHERE site_id = OLD.site_id AND system = OLD.system AND key = OLD.key;
  END;
  `,
  `
  -- The action log and the report history now live in their own files (actions.db, reports.db):
  -- their rows were copied there, in the same transaction, just before this migration ran.
  DROP TABLE IF EXISTS action_log_head;
  DROP TABLE IF EXISTS action_log;
  DROP TABLE IF EXISTS reports;
  `,
  `
  -- Answers are stored normalised (app/answers/normalise.ts) from format 2 on. Format 1 rows were
  -- stored as the system sent them: they are normalised when next read, and dropped when their
  -- shape is not one the app recognises (the upgrade option of OfflineCache).
  ALTER TABLE cache_entries ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
  `,
  `
  -- Content version of each answer: a number from one counter (cache_size.version), taken when a
  -- put stores a value different from the one held; a put of the same answer only advances its read
  -- time (at). Who derives something from the answers (the alert engine after every poll) compares
  -- versions instead of reading and parsing them again. Indexed with the key: a system's versions
  -- are read from the index, without walking the (possibly large) values stored before the column.
  ALTER TABLE cache_entries ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE cache_size ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX cache_entries_version ON cache_entries (site_id, system, key, version);
  `,
  `
  -- Each system's health summary (main/core/health-summaries.ts), computed from its cached answers
  -- when they change, so a start loads one small row per system instead of parsing its answers.
  -- Derived data: a row of another format is computed again from the cache.
  CREATE TABLE system_summaries (
    site_id TEXT    NOT NULL,
    system  TEXT    NOT NULL,
    format  INTEGER NOT NULL,   -- SUMMARY_FORMAT of the version that computed it
    summary TEXT    NOT NULL,   -- JSON, redacted
    PRIMARY KEY (site_id, system)
  ) WITHOUT ROWID;
  `,
  `
  -- Every start lists each (site, system) with its newest read time (OfflineCache.systems, the
  -- fleet's statuses before the window opens). Read from the table, \`at\` lies past each row's
  -- stored answer, so the listing walked the whole cache (40 MB at 200 systems); from this index
  -- alone it reads a few pages.
  CREATE INDEX cache_entries_system_at ON cache_entries (site_id, system, at);
  `,
  `
  -- Each system's last refresh outcome (main/store/system-outcomes.ts): its status as the refresh
  -- left it, so a later process (a report after \`fleetdeck refresh\`, the other shell) starts from
  -- what that refresh found instead of calling every cached system stale.
  CREATE TABLE system_outcomes (
    site_id TEXT NOT NULL,
    system  TEXT NOT NULL,
    status  TEXT NOT NULL,   -- JSON of the SystemStatus, redacted, without seq or progress
    PRIMARY KEY (site_id, system)
  ) WITHOUT ROWID;
  `,
  `
  -- What each site showed of its selection (main/store/selection-scopes.ts): whether each session
  -- keeps its own or the user's sessions share one, learned with two sessions and one select; kept
  -- so that every process of the data dir starts knowing it, for a day.
  CREATE TABLE selection_scopes (
    site_id    TEXT    NOT NULL PRIMARY KEY,
    base_url   TEXT    NOT NULL,   -- the URL it was learned at
    scope      TEXT    NOT NULL,   -- 'session' or 'shared'
    unflagged  INTEGER NOT NULL,   -- 1: its system list flags no system
    learned_at TEXT    NOT NULL
  ) WITHOUT ROWID;
  `,
];

/**
 * Migrations of the action log (`actions.db`), same rules as {@link MIGRATIONS}.
 *
 * Records are hash-chained in `seq` order. `format` 1 is a write recorded after the fact, as
 * Fleetdeck stored them in fleetdeck.db before the log had its own file (imported unchanged, hashes
 * included). `format` 2 records each write twice: an `intent` (with its parameters) committed
 * before the request is sent, and an `outcome` (`ok`, `refused`, `unknown`) pointing at its intent
 * once the answer is known; an intent without an outcome is a write whose outcome is unknown.
 * `restart` opens a new log after the previous file was damaged or lost, naming it.
 */
export const LOG_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE action_log (
    seq        INTEGER PRIMARY KEY,
    format     INTEGER NOT NULL CHECK (format IN (1, 2)),
    kind       TEXT    NOT NULL CHECK (kind IN ('write', 'intent', 'outcome', 'restart')),
    at         TEXT    NOT NULL,   -- ISO time
    user       TEXT    NOT NULL,
    site_id    TEXT    NOT NULL,
    system     TEXT    NOT NULL,
    operation  TEXT    NOT NULL,
    params     TEXT    NOT NULL,   -- canonical JSON, already redacted ('null' on outcomes)
    result     TEXT    NOT NULL CHECK (result IN ('ok', 'error', 'pending', 'refused', 'unknown')),
    message    TEXT    NOT NULL,   -- already redacted
    intent_seq INTEGER,            -- outcome: the intent it completes
    prev_hash  TEXT    NOT NULL,
    hash       TEXT    NOT NULL,
    CHECK ((format = 1) = (kind = 'write')),
    CHECK ((kind = 'outcome') = (intent_seq IS NOT NULL))
  );
  CREATE INDEX action_log_site_at ON action_log (site_id, at);
  CREATE INDEX action_log_at ON action_log (at);
  -- One outcome per intent; also what the listing joins on.
  CREATE UNIQUE INDEX action_log_outcome ON action_log (intent_seq) WHERE intent_seq IS NOT NULL;
  ${ACTION_LOG_APPEND_ONLY}

  -- Facts about the file itself: where its first records came from.
  CREATE TABLE log_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  `
  -- Kind 'local': a change made in Fleetdeck itself, not sent to any system (an alert rule edited).
  -- SQLite cannot change a CHECK in place: the table is rebuilt with every row, seq and hash as
  -- they were (DROP TABLE drops the append-only triggers first, so none fires), then they return.
  CREATE TABLE action_log_v2 (
    seq        INTEGER PRIMARY KEY,
    format     INTEGER NOT NULL CHECK (format IN (1, 2)),
    kind       TEXT    NOT NULL CHECK (kind IN ('write', 'intent', 'outcome', 'restart', 'local')),
    at         TEXT    NOT NULL,
    user       TEXT    NOT NULL,
    site_id    TEXT    NOT NULL,
    system     TEXT    NOT NULL,
    operation  TEXT    NOT NULL,
    params     TEXT    NOT NULL,
    result     TEXT    NOT NULL CHECK (result IN ('ok', 'error', 'pending', 'refused', 'unknown')),
    message    TEXT    NOT NULL,
    intent_seq INTEGER,
    prev_hash  TEXT    NOT NULL,
    hash       TEXT    NOT NULL,
    CHECK ((format = 1) = (kind = 'write')),
    CHECK ((kind = 'outcome') = (intent_seq IS NOT NULL))
  );
  INSERT INTO action_log_v2 (seq, format, kind, at, user, site_id, system, operation, params, result, message, intent_seq, prev_hash, hash)
    SELECT seq, format, kind, at, user, site_id, system, operation, params, result, message, intent_seq, prev_hash, hash FROM action_log;
  DROP TABLE action_log;
  ALTER TABLE action_log_v2 RENAME TO action_log;
  CREATE INDEX action_log_site_at ON action_log (site_id, at);
  CREATE INDEX action_log_at ON action_log (at);
  CREATE UNIQUE INDEX action_log_outcome ON action_log (intent_seq) WHERE intent_seq IS NOT NULL;
  ${ACTION_LOG_TRIGGERS}
  `,
  `
  -- Outbox of the syslog forwarder (main/audit/syslog-forwarder.ts): the seq of every record not yet
  -- confirmed by the collector. A trigger queues each record in the transaction that appends it, so
  -- no record can be appended without being queued; every record already in the log is queued too
  -- (the collector receives the whole trail). The forwarder deletes rows only once confirmed.
  CREATE TABLE syslog_outbox (
    seq INTEGER PRIMARY KEY   -- action_log.seq
  );
  INSERT INTO syslog_outbox (seq) SELECT seq FROM action_log;
  CREATE TRIGGER action_log_outbox AFTER INSERT ON action_log BEGIN
    INSERT INTO syslog_outbox (seq) VALUES (NEW.seq);
  END;

  -- The forwarder's state, one row: what the collector confirmed, the last error, and which process
  -- forwards (a lease, so the app and a monitor on one data directory do not both send).
  CREATE TABLE syslog_forward (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    acked_seq     INTEGER NOT NULL DEFAULT 0,   -- highest seq confirmed (every lower one is too)
    acked_at      TEXT,                         -- ISO time of that confirmation
    last_error    TEXT,
    last_error_at TEXT,
    lease_owner   TEXT,                         -- "pid@host/random" of the forwarding process
    lease_until   TEXT                          -- ISO time the lease ends unless renewed
  );
  INSERT INTO syslog_forward (id) VALUES (1);

  -- This log's identity on a collector, where the trails of many workstations meet.
  INSERT OR IGNORE INTO log_meta (key, value) VALUES ('log-id', lower(hex(randomblob(16))));
  `,
];

/**
 * Migrations of the alerts file (`alerts.db`), same rules as {@link MIGRATIONS}. Not in the
 * cache, which is rebuilt when damaged: an acknowledgement, a snooze and an admin's rules are
 * decisions, not answers the next refresh fetches again.
 */
export const ALERT_MIGRATIONS: readonly string[] = [
  `
  -- Every alert raised, open or cleared (cleared ones are the history).
  CREATE TABLE alerts (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    rule            TEXT    NOT NULL,
    site_id         TEXT    NOT NULL,
    system          TEXT    NOT NULL,
    subject         TEXT    NOT NULL,   -- a drive, a pool, a pair; '' for the system itself
    level           TEXT    NOT NULL CHECK (level IN ('warning', 'critical')),
    message         TEXT    NOT NULL,
    raised_at       TEXT    NOT NULL,   -- ISO times
    last_seen_at    TEXT    NOT NULL,
    cleared_at      TEXT,
    acknowledged_at TEXT,
    acknowledged_by TEXT,
    snoozed_until   TEXT
  );
  -- One alert per condition while it lasts: the stable key is rule + system + subject.
  CREATE UNIQUE INDEX alerts_active_key ON alerts (rule, site_id, system, subject) WHERE cleared_at IS NULL;
  CREATE INDEX alerts_raised_at ON alerts (raised_at);

  -- The admin's rule overrides: one row per scope ('' site/system for the fleet, '' system for a site).
  CREATE TABLE alert_rules (
    site_id  TEXT NOT NULL,
    system   TEXT NOT NULL,
    override TEXT NOT NULL,   -- JSON of app/alerts/rules.ts ruleOverrideSchema
    PRIMARY KEY (site_id, system)
  );

  -- Settings of alerting itself (desktop notifications on or off).
  CREATE TABLE alert_settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  `
  -- An alert about an object in a state not understood (a system whose answers are not understood)
  -- has the level 'unknown' (app/alerts/evaluate.ts): the table takes it. SQLite changes a CHECK
  -- only by building the table again.
  CREATE TABLE alerts_next (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    rule            TEXT    NOT NULL,
    site_id         TEXT    NOT NULL,
    system          TEXT    NOT NULL,
    subject         TEXT    NOT NULL,
    level           TEXT    NOT NULL CHECK (level IN ('warning', 'unknown', 'critical')),
    message         TEXT    NOT NULL,
    raised_at       TEXT    NOT NULL,
    last_seen_at    TEXT    NOT NULL,
    cleared_at      TEXT,
    acknowledged_at TEXT,
    acknowledged_by TEXT,
    snoozed_until   TEXT
  );
  INSERT INTO alerts_next SELECT id, rule, site_id, system, subject, level, message, raised_at, last_seen_at, cleared_at, acknowledged_at, acknowledged_by, snoozed_until FROM alerts;
  DROP TABLE alerts;
  ALTER TABLE alerts_next RENAME TO alerts;
  CREATE UNIQUE INDEX alerts_active_key ON alerts (rule, site_id, system, subject) WHERE cleared_at IS NULL;
  CREATE INDEX alerts_raised_at ON alerts (raised_at);
  `,
  `
  -- The alerts not cleared of one system: what every evaluation that changes something reconciles
  -- with (the key index above starts with the rule, so without this each one scans the table).
  CREATE INDEX alerts_system_active ON alerts (site_id, system) WHERE cleared_at IS NULL;
  `,
];

/**
 * Migrations of the report history (`reports.db`), same rules as {@link MIGRATIONS}. The
 * history has its own file rather than living in the cache: a cache is rebuilt when damaged, and
 * generated reports are records an admin kept, not answers the next refresh can fetch again.
 */
export const REPORT_MIGRATIONS: readonly string[] = [
  `
  -- Every generated report with its model, so it can be reopened, exported again and compared.
  ${REPORTS_TABLE}
  CREATE TABLE report_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  `
  -- Compliance scores kept per evaluation (main/compliance/score-history.ts): of each system, and of
  -- the scope evaluated (system ''; site_id '' for the whole fleet). A record an auditor reads
  -- over time, like the reports, not an answer the next refresh can fetch again.
  CREATE TABLE compliance_scores (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    at       TEXT    NOT NULL,   -- ISO time of the evaluation
    baseline TEXT    NOT NULL,   -- SHA-256 of the baseline evaluated
    site_id  TEXT    NOT NULL,
    system   TEXT    NOT NULL,
    counts   TEXT    NOT NULL,   -- JSON of the effective counts (app/compliance/results.ts)
    score    REAL                -- percent; NULL when no check applied
  );
  CREATE INDEX compliance_scores_key ON compliance_scores (site_id, system, id);
  `,
  `
  -- Per system, what each check showed at the evaluation and the system's last change (what changed
  -- since the previous evaluation, carried forward while nothing moves). NULL on scope rows.
  ALTER TABLE compliance_scores ADD COLUMN results TEXT;   -- JSON: check id -> state (app/compliance/changes.ts)
  ALTER TABLE compliance_scores ADD COLUMN changes TEXT;   -- JSON of keptChangeSchema, NULL before any change
  `,
];

/**
 * Migrations of the site list (`sites.db`), same rules as {@link MIGRATIONS}. Its own file:
 * the cache is rebuilt when damaged and the action log set aside by `log start-new`, and neither
 * may take the admin's sites with it. Each site is its JSON (`app/domain/site.ts`), so every field
 * survives whatever this file's columns are; `name_key` makes a name clash fail even past the code.
 */
export const SITE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE sites (
    id       TEXT    PRIMARY KEY,
    position INTEGER NOT NULL,
    name_key TEXT    NOT NULL UNIQUE,
    site     TEXT    NOT NULL
  );
  -- Facts about the file itself: the sites.json it was imported from.
  CREATE TABLE site_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
];
