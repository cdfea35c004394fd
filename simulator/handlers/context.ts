import type { Operation, OperationKey } from '../../app/catalog/index.js';
import type { Args } from '../args.js';
import type { FleetState, Session, SiteState, SystemState, UserState } from '../state/model.js';
import type { NotifyInput } from '../state/notifications.js';

/** Everything a handler needs for one request. */
export interface Ctx {
  readonly op: Operation;
  readonly query: Args;
  readonly body: Args;
  readonly headers: Args;
  readonly fleet: FleetState;
  readonly site: SiteState;
  /** The session's selected system (the site's first system for unauthenticated operations). */
  readonly system: SystemState;
  readonly session: Session | undefined;
  readonly user: UserState | undefined;
  readonly nowMs: number;
  /** Waits as the system would take its time (the simulator clock's wait: real timers, or a test's). */
  wait(ms: number): Promise<void>;
  /** Writes a notification record on the current system. */
  notify(input: NotifyInput): void;
  /** Writes a notification record on another system of the site. */
  notifyOn(system: SystemState, input: NotifyInput): void;
  /** Set by a handler that wrote its own record, so the generic write record is skipped. */
  audited: boolean;
}

/** Marks a 200 response with no body. */
export const EMPTY: unique symbol = Symbol('empty');

export type HandlerResult = unknown;
export type Handler = (ctx: Ctx) => HandlerResult | Promise<HandlerResult>;
/** Handlers keyed by catalog operation key (`METHOD /path`): a misspelt key fails `tsc`; `buildHandlers` checks every key has one. */
export type HandlerMap = { readonly [K in OperationKey]?: Handler };
