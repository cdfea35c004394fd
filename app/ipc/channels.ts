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
