import type { Alert } from '../../app/alerts/alert.js';
import type { FixPlan } from '../../app/compliance/fix.js';
import type { FleetComplianceView, ScorePoint } from '../../app/compliance/results.js';
import type { Waiver } from '../../app/compliance/waivers.js';
import { api } from './api.js';
import { errorText } from './format.js';

/**
 * The compliance view's state: main's evaluation of the window's sites (the same one the CLI and
 * the audit pack print), and the calls that change it (waivers) or preview a fix. Nothing is
 * judged here: results, waivers and scores come from main.
 */
export class ComplianceState {
  result = $state.raw<FleetComplianceView | undefined>();
  loading = $state(false);
  error = $state<string | undefined>();
  /**
   * The compliance alerts not cleared, read with each evaluation, by `[siteId, system, check]`:
   * what the alert engine raised for a failing check. Undefined when they could not be read.
   */
  alerts = $state.raw<Readonly<Record<string, Alert>> | undefined>();
  #seq = 0;

  /** Evaluates again (each evaluation's score is kept by main), and reads the compliance alerts. */
  async load(site?: string): Promise<void> {
    this.loading = true;
    // Evaluations may overlap (a poll ends during one): only the last one started is shown.
    const seq = ++this.#seq;
    try {
      const [result, alerts] = await Promise.all([
        api().invoke('compliance:evaluate', site !== undefined ? { site } : {}),
        api()
          .invoke('alerts:list', { rule: 'compliance', state: 'active', limit: 10_000 })
          .then((r) => r.alerts)
          .catch(() => undefined),
      ]);
      if (seq !== this.#seq) return;
      this.result = result;
      this.alerts = alerts && Object.fromEntries(alerts.map((a) => [alertKey(a.siteId, a.system, a.subject), a]));
      this.error = undefined;
    } catch (err) {
      if (seq === this.#seq) this.error = errorText(err);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  /** A system's kept scores, oldest first. */
  history(site: string, system: string): Promise<ScorePoint[]> {
    return api().invoke('compliance:history', { site, system });
  }

  /** Records a waiver, then evaluates again. @throws the refusal (a reason missing, an end in the past) */
  async waive(request: { check: string; site?: string; system?: string; reason: string; until: string }): Promise<Waiver> {
    const w = await api().invoke('compliance:waive', request);
    await this.load();
    return w;
  }

  async unwaive(request: { check: string; site?: string; system?: string }): Promise<void> {
    await api().invoke('compliance:unwaive', request);
    await this.load();
  }

  /** The compliance alert of one check of one system, if one is not cleared. */
  alertOf(siteId: string, system: string, check: string): Alert | undefined {
    return this.alerts?.[alertKey(siteId, system, check)];
  }

  /** The exact writes a check's fix would send; sends nothing. */
  fixPlan(check: string): Promise<FixPlan> {
    return api().invoke('compliance:fixplan', { check });
  }
}

const alertKey = (siteId: string, system: string, check: string): string => JSON.stringify([siteId, system, check]);
