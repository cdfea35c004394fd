import { InputError } from '../../app/errors.js';
import { redact } from '../../app/redact.js';
import { UNWAIVE_OPERATION, WAIVE_OPERATION, waiverGrantSchema, waiverScopeSchema, waiversFromLog, type Waiver, type WaiverGrant, type WaiverScope } from '../../app/compliance/waivers.js';
import type { ActionLog } from '../store/action-log.js';

/** What a waiver's text names of its scope: `tundra-01 of lab`, `every system of lab`, `every system`. */
export type ScopeNamer = (siteId: string, system: string) => string;

/**
 * Waivers kept as records of the action log's hash chain: granted and revoked there, read back
 * from there. The list read is kept until the chain's head moves (another record, from this process
 * or another), so an evaluation after every refresh costs one small read.
 */
export class WaiverLog {
  private kept: { head: number; waivers: Waiver[] } | undefined;

  constructor(
    private readonly log: ActionLog,
    private readonly user: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * The waivers in force or expired (a log that cannot be read has none: nothing is excused).
   */
  list(): Waiver[] {
    if (this.log.unusable) return [];
    const head = this.log.headSeq();
    if (this.kept?.head === head) return this.kept.waivers;
    const records = this.log.list({ operation: 'compliance ' }).filter((r) => r.operation === WAIVE_OPERATION || r.operation === UNWAIVE_OPERATION);
    const waivers = waiversFromLog(records);
    this.kept = { head, waivers };
    return waivers;
  }

  /** A token that changes whenever a waiver may have changed (the chain's head), for whoever caches results. */
  revision(): number {
    return this.log.unusable ? -1 : this.log.headSeq();
  }

  /**
   * Records a waiver; it replaces one of the same check and scope.
   * @throws InputError for a reason missing, an expiry not in the future; StoreError when the log cannot record it
   */
  waive(grant: WaiverGrant, name: ScopeNamer): Waiver {
    const g = parse(() => waiverGrantSchema.parse(grant));
    const until = new Date(Date.parse(g.until));
    const now = this.clock();
    if (until.getTime() <= now.getTime()) throw new InputError(`the waiver must end after now (${now.toISOString()}): ${g.until} has passed`);
    const params = { ...g, until: until.toISOString() };
    const record = this.log.recordLocal({
      user: this.user,
      siteId: g.siteId,
      system: g.system,
      operation: WAIVE_OPERATION,
      params: redact(params),
      message: redact(`check ${g.check} waived for ${name(g.siteId, g.system)} until ${params.until}: ${g.reason}`),
    });
    this.kept = undefined;
    return { ...params, by: record.user, at: record.at, seq: record.seq };
  }

  /**
   * Revokes the waiver of one check and scope.
   * @throws InputError when no waiver of that check and scope is recorded; StoreError as {@link waive}
   */
  unwaive(scope: WaiverScope, name: ScopeNamer): void {
    const s = parse(() => waiverScopeSchema.parse(scope));
    if (!this.list().some((w) => w.check === s.check && w.siteId === s.siteId && w.system === s.system)) {
      throw new InputError(`no waiver of check ${s.check} for ${name(s.siteId, s.system)} to revoke`, 'not-found');
    }
    this.log.recordLocal({ user: this.user, siteId: s.siteId, system: s.system, operation: UNWAIVE_OPERATION, params: redact(s), message: redact(`waiver of check ${s.check} for ${name(s.siteId, s.system)} revoked`) });
    this.kept = undefined;
  }
}

function parse<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    const issues = (err as { issues?: Array<{ message: string; path: PropertyKey[] }> }).issues;
    if (!issues) throw err;
    throw new InputError(issues.map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; '));
  }
}
