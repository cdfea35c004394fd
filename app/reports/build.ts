import { describeIncomplete, incompleteOf } from '../answers/incomplete.js';
import { describeClockOffset } from '../answers/time.js';
import { redact, type Redacted } from '../redact.js';
import { actionsSection } from './actions.js';
import { complianceSection } from './compliance.js';
import { configSection } from './config.js';
import { formatAge } from './format.js';
import { healthSection } from './health.js';
import { inventorySection } from './inventory.js';
import { AUDIT_PARTS, KIND_TITLES, REPORT_FORMAT, overallDataAges, type ReportKind, type ReportModel, type ReportSection } from './model.js';
import type { ReportInput } from './snapshot.js';
import { smartSection } from './smart.js';

const BUILDERS: Readonly<Record<Exclude<ReportKind, 'audit'>, (input: ReportInput) => ReportSection>> = {
  inventory: inventorySection,
  health: healthSection,
  smart: smartSection,
  config: configSection,
  actions: actionsSection,
  compliance: complianceSection,
};

/**
 * Builds a report of one kind from a snapshot. Pure and deterministic: the same input gives the
 * same model. The audit pack holds every other kind's section. The result passes through
 * `redact()`, so a secret that slipped into a cached answer under a secret field name is masked;
 * it is the one redaction of a new report: the history and every export format take it as it is.
 */
export function buildReport(kind: ReportKind, input: ReportInput): Redacted<ReportModel> {
  const parts = kind === 'audit' ? AUDIT_PARTS : [kind];
  const sections = parts.map((k) => BUILDERS[k](input));
  const systems = input.systems.map((s) => ({ siteId: s.siteId, siteName: s.siteName, system: s.system }));
  const model: ReportModel = {
    format: REPORT_FORMAT,
    kind,
    title: KIND_TITLES[kind],
    generatedAt: input.generatedAt,
    generatedBy: input.generatedBy,
    appVersion: input.appVersion,
    source: input.source,
    scope: { sites: input.sites.map((s) => ({ id: s.id, name: s.name })), systems },
    period: { since: input.period.since, until: input.period.until },
    sections,
    notes: [],
  };
  model.notes = notesOf(input, model);
  return redact(model);
}

/** What an auditor must read first: missing data, unreachable systems, old data, a broken log. */
function notesOf(input: ReportInput, model: ReportModel): string[] {
  const notes: string[] = [];
  notes.push(
    input.source === 'fresh'
      ? 'Built right after refreshing the systems in scope; systems that could not be reached are shown from the offline cache, with the age of their data.'
      : 'Built from the offline cache only (no system was contacted); every section shows per system how old its data is.',
  );
  for (const p of input.siteProblems) notes.push(`Site ${p.siteName}: ${p.message}`);
  if (model.kind !== 'actions') {
    for (const s of input.systems) {
      if (s.state === 'unlisted') notes.push(`${s.siteName} / ${s.system}: ${s.problem ?? 'not listed by the site'}; it is in this report from the offline cache only.`);
      if (s.state !== 'protocol-error') continue;
      notes.push(
        `${s.siteName} / ${s.system}: its answers were not understood (${s.problem ?? 'protocol error'}); what could not be read is not in this report as data: its tables show only what was read before, with its age, or say nothing is cached.`,
      );
    }
    for (const s of input.systems) {
      const clock = describeClockOffset(s.clockOffsetMs);
      if (clock) notes.push(`${s.siteName} / ${s.system}: its ${clock}; the times it sent without a zone are shown moved to true time.`);
      for (const [op, answer] of Object.entries(s.answers)) {
        const incomplete = incompleteOf(answer?.value);
        if (incomplete) notes.push(`${s.siteName} / ${s.system}: ${op} is ${describeIncomplete(incomplete)} (the system sent part of the list); what this report counts of it is a lower bound.`);
      }
      const skipped = (s.answers['GET /notifications/query']?.value as { Skipped?: unknown } | undefined)?.Skipped;
      if (typeof skipped === 'number' && skipped > 0) notes.push(`${s.siteName} / ${s.system}: at least ${skipped} notification record(s) were never read (more arrived between two polls than could be paged back); a warning or error among them is not in this report.`);
    }
    for (const age of overallDataAges(model)) {
      const who = `${age.siteName} / ${age.system}`;
      if (age.at === null) notes.push(`${who}: nothing cached; this system is listed without data.`);
      else if (age.state !== 'ok') notes.push(`${who} was ${age.state} when this report was made; its oldest data is from ${age.at} (${formatAge(age.ageSeconds ?? 0)} old).`);
    }
  }
  if (!input.actions.verification.ok && (model.kind === 'actions' || model.kind === 'audit')) {
    notes.push(`The action log failed its hash chain check (${input.actions.verification.problems.length} problem(s)); see the action log section.`);
  }
  return notes;
}
