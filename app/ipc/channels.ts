/**
 * Channel and event names of the IPC contract, without schemas: the sandboxed preload is bundled
 * with only these names. `contract.ts` is checked at compile time to define exactly these keys.
 */
export const CHANNEL_NAMES = [
  'app:info',
  'sites:list',
  'sites:probe',
  'sites:add',
  'sites:edit',
  'sites:remove',
  'sites:trust',
  'sites:pause',
  'sites:export',
  'sites:preview',
  'sites:import',
  'session:login',
  'session:logout',
  'fleet:status',
  'fleet:refresh',
  'op:call',
  'op:cancel',
  'bulk:start',
  'bulk:list',
  'bulk:retry',
  'bulk:cancel',
  'cache:read',
  'search:query',
  'health:briefs',
  'health:summaries',
  'log:list',
  'log:verify',
  'log:query',
  'log:export',
  'forward:status',
  'forward:set',
  'reports:list',
  'reports:generate',
  'reports:open',
  'reports:diff',
  'reports:export',
  'alerts:list',
  'alerts:ack',
  'alerts:snooze',
  'alertrules:get',
  'alertrules:set',
  'alerts:notify',
  'table:export',
  'demo:whatif',
  'notices:dismiss',
  'compliance:evaluate',
  'compliance:history',
  'compliance:waive',
  'compliance:unwaive',
  'compliance:fixplan',
] as const;

export const EVENT_NAMES = ['fleet:status', 'fleet:notifications', 'bulk:progress', 'alerts:changed', 'alerts:open'] as const;

export type ChannelName = (typeof CHANNEL_NAMES)[number];
export type EventNameList = (typeof EVENT_NAMES)[number];

/** Prefix of the Electron IPC channel carrying a contract channel, and of pushed events. */
export const IPC_PREFIX = 'fleetdeck:';
export const EVENT_PREFIX = 'fleetdeck-event:';

/**
 * The first frame's reads (the fleet and every system's health roll-up), each with an empty request:
 * the window sends them before anything else (renderer/lib/api.ts `startFirstReads`), and the
 * Electron preload already at document start (main/electron/preload.ts).
 */
export const FIRST_READS = ['app:info', 'sites:list', 'fleet:status', 'health:briefs'] as const satisfies readonly ChannelName[];

/**
 * The browser shell's header on each call's answer: how many system status events (`fleet:status`,
 * each with that number as its SSE `id`) it had sent when it began the answer. A page opens its event
 * stream with the number of its `fleet:status` answer as `last-event-id` and is sent, first, the
 * status of each system that changed since (the stream opens ~120 ms after that answer).
 */
export const STATUS_SEQ_HEADER = 'x-fleetdeck-status-seq';

/**
 * What each channel may change, for the machine policy's read-only mode (and any other guard of
 * writes): `read` changes nothing a user shares (reads, sessions, exports, reports); `local` changes
 * this workstation's own view of alerts and notices only, recorded nowhere else; `write` changes a
 * storage system, the site list or the action log; `operation` is a catalog operation, a write when
 * the catalog says it writes. A read-only workstation refuses `write`, and `operation` for an
 * operation that writes. Every channel must be named here (the type says so), so a new channel
 * cannot reach main without a decision.
 */
export const CHANNEL_ACCESS = {
  'app:info': 'read',
  'sites:list': 'read',
  'sites:probe': 'read',
  'sites:add': 'write',
  'sites:edit': 'write',
  'sites:remove': 'write',
  'sites:trust': 'write',
  'sites:pause': 'write',
  'sites:export': 'read',
  'sites:preview': 'read',
  'sites:import': 'write',
  'session:login': 'read',
  'session:logout': 'read',
  'fleet:status': 'read',
  'fleet:refresh': 'read',
  'op:call': 'operation',
  'op:cancel': 'read',
  'bulk:start': 'operation',
  'bulk:list': 'read',
  'bulk:retry': 'write',
  'bulk:cancel': 'read',
  'cache:read': 'read',
  'search:query': 'read',
  'health:briefs': 'read',
  'health:summaries': 'read',
  'log:list': 'read',
  'log:verify': 'read',
  'log:query': 'read',
  'log:export': 'read',
  'reports:list': 'read',
  'reports:generate': 'read',
  'reports:open': 'read',
  'reports:diff': 'read',
  'reports:export': 'read',
  'alerts:list': 'read',
  'alerts:ack': 'local',
  'alerts:snooze': 'local',
  'alertrules:get': 'read',
  'alertrules:set': 'write',
  'alerts:notify': 'write',
  'table:export': 'read',
  'demo:whatif': 'write',
  'notices:dismiss': 'local',
  'forward:status': 'read',
  'forward:set': 'write',
  'compliance:evaluate': 'read',
  'compliance:history': 'read',
  'compliance:waive': 'write',
  'compliance:unwaive': 'write',
  'compliance:fixplan': 'read',
} as const satisfies Record<ChannelName, 'read' | 'local' | 'write' | 'operation'>;
