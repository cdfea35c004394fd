import { ManagedError } from '../../app/errors.js';
import { problemText, type PolicyView } from '../../app/policy/machine-policy.js';
import type { PolicyState } from './policy-state.js';

/**
 * The machine policy as main enforces it, handed to every store and service that changes something
 * (the site list, the fleet's writes, the action log, IPC dispatch): one object answers whether a
 * write may happen and why not. Built once at start; the policy does not change while main runs.
 */
export class PolicyGuard {
  private readonly managedIds: ReadonlySet<string>;

  constructor(readonly state: PolicyState = { file: '(none)', status: 'none', problems: [], notes: [] }) {
    this.managedIds = new Set((state.policy?.sites ?? []).map((s) => s.id));
  }

  /** Why every write is refused (read-only by policy, or a refused policy), or undefined. */
  get readOnly(): string | undefined {
    return this.state.readOnly;
  }

  /** The shortest poll interval a site may have (seconds), when the policy sets one. */
  get minPollIntervalSeconds(): number | undefined {
    return this.state.policy?.minPollIntervalSeconds;
  }

  /**
   * Refuses a write on a read-only workstation.
   * @param what the write, as the refusal names it ("adding a site", "POST /volumes/create").
   * @throws ManagedError
   */
  assertWritable(what: string): void {
    if (this.state.readOnly !== undefined) throw new ManagedError(`${what} is refused: ${this.state.readOnly}`);
  }

  /** Whether a site is one the policy presets (managed: not edited or removed in the app). */
  isManaged(siteId: string): boolean {
    return this.managedIds.has(siteId);
  }

  /**
   * Refuses changing or removing a site the policy presets.
   * @throws ManagedError
   */
  assertSiteEditable(site: { id: string; name: string }, what: string): void {
    if (this.isManaged(site.id)) throw new ManagedError(`${what} is refused: site "${site.name}" is managed by your organisation (machine policy ${this.state.file}); ask IT to change it`);
  }

  /**
   * Refuses a poll interval below the policy's minimum (0, on demand, is never below it).
   * @throws ManagedError
   */
  assertInterval(siteName: string, intervalSeconds: number): void {
    const min = this.minPollIntervalSeconds;
    if (min !== undefined && intervalSeconds > 0 && intervalSeconds < min) {
      throw new ManagedError(`${siteName}: a poll interval of ${intervalSeconds} s is refused: the minimum poll interval is managed by your organisation (at least ${min} s, or on demand)`);
    }
  }

  /** What the window shows of the policy. */
  view(): PolicyView {
    const p = this.state.policy;
    const managed: PolicyView['managed'] = [];
    if (p?.minPollIntervalSeconds !== undefined) managed.push({ setting: 'minimum poll interval', value: `${p.minPollIntervalSeconds} s` });
    if (this.state.updateUrl !== undefined) managed.push({ setting: 'update feed', value: this.state.updateUrl });
    if (p?.syslog) managed.push({ setting: 'audit trail collector (syslog)', value: `${p.syslog.transport ?? 'tls'}://${p.syslog.target}` });
    if (p?.metrics) managed.push({ setting: 'metrics endpoint', value: `${p.metrics.listen}${p.metrics.webConfigFile ? ` (web config ${p.metrics.webConfigFile})` : ''}` });
    if (p?.sites?.length) managed.push({ setting: 'preset sites', value: p.sites.map((s) => s.name).join(', ') });
    return {
      status: this.state.status,
      file: this.state.file,
      ...(this.state.readOnly !== undefined ? { readOnly: this.state.readOnly } : {}),
      ...(this.state.problems.length ? { problems: this.state.problems.map(problemText) } : {}),
      managed,
      managedSites: [...this.managedIds],
      ...(p?.minPollIntervalSeconds !== undefined ? { minPollIntervalSeconds: p.minPollIntervalSeconds } : {}),
    };
  }
}
