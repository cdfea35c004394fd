import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CHANGE_WORDS } from '../../../app/compliance/changes.js';
import type { Evidence } from '../../../app/compliance/evaluate.js';
import { RESULT_WORDS, stateWord, worstFirst } from '../../../app/compliance/order.js';
import type { BaselineMeta, FleetComplianceView } from '../../../app/compliance/results.js';
import { BaselineError } from '../../../app/compliance/parse.js';
import { effectiveResult, waiverText } from '../../../app/compliance/waivers.js';
import { terminalField } from '../../../app/safe-text.js';
import { readBaselineFile, secureBaselineText, shippedBaseline, type BaselineSource } from '../../compliance/baseline-source.js';
import type { ComplianceService } from '../../compliance/compliance-service.js';
import type { Runtime } from '../../runtime.js';
import { DATA_DIR, withRuntime } from '../context.js';
import { CliError, EXIT, printJson, printRow, type CliIo } from '../io.js';
import { noteUnread, unreadSites } from '../unread.js';

export { secureBaselineText, type BaselineSource };

/** The options of every compliance command: the data directory, and a baseline file to judge by instead of the data directory's. */
const BASELINE_OPTIONS = { ...DATA_DIR, baseline: { type: 'string' } } as const;

/** Reads the baseline of `file`, or the shipped one; a malformed file is refused line by line (a `validation` error). */
export function loadBaseline(file: string | undefined): BaselineSource {
  if (file === undefined) return shippedBaseline();
  try {
    return readBaselineFile(file);
  } catch (err) {
    if (!(err instanceof BaselineError)) throw new CliError(`cannot read the baseline ${file}: ${(err as Error).message}`, EXIT.usage);
    // One problem a line; each kept to one line, since it may quote the file.
    const lines = err.problems.map((p) => `  line ${p.line}${p.path ? ` (${terminalField(p.path)})` : ''}: ${terminalField(p.message)}`);
    throw new CliError(`${file}: not a usable baseline\n${lines.join('\n')}`, EXIT.usage);
  }
}

/**
 * `fleetdeck compliance [--baseline FILE] [--site NAME]... [--json] [--print-baseline]`: every
 * cached system against the baseline (without `--baseline`, the data directory's, as the app uses),
 * from the offline cache alone. Exits {@link EXIT.checksFailing} when any check fails on any system
 * without a waiver in force, else {@link EXIT.notRead} when a site in scope has no system read, else
 * 0; a check that cannot tell does not fail the run but is printed.
 */
export async function complianceCommand(io: CliIo, args: readonly string[]): Promise<number> {
  if (args[0] === 'waive' || args[0] === 'unwaive') return waiveCommand(io, args[0], args.slice(1));
  if (args[0] === 'fix') return fixCommand(io, args.slice(1));
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    options: {
      ...BASELINE_OPTIONS,
      site: { type: 'string', multiple: true, default: [] },
      json: { type: 'boolean', default: false },
      'print-baseline': { type: 'boolean', default: false },
    },
  });
  if (values['print-baseline']) {
    io.stdout(values.baseline === undefined ? secureBaselineText() : `${JSON.stringify(loadBaseline(values.baseline).baseline, null, 2)}\n`);
    return EXIT.ok;
  }
  const source = values.baseline === undefined ? undefined : loadBaseline(values.baseline);
  return withRuntime(
    io,
    values['data-dir'],
    async (rt) => {
      const siteIds = new Set((values.site ?? []).map((name) => siteIdOf(rt, name)));
      // Without --baseline: the data directory's baseline, the one the app evaluates.
      const result = serviceOn(rt, source).evaluate(siteIds.size ? { siteIds } : {});
      const unread = unreadSites(rt, siteIds);
      if (values.json) printJson(io, unread.length ? { ...result, notRead: unread.map((s) => ({ siteId: s.id, site: s.name })) } : result);
      else printText(io, result);
      noteUnread(io, unread, 'checks');
      return result.counts.fail > 0 ? EXIT.checksFailing : unread.length ? EXIT.notRead : EXIT.ok;
    },
    { secrets: false },
  );
}

/**
 * `fleetdeck compliance waive CHECK [--site S [--system X]] --reason TEXT --until ISO` and
 * `compliance unwaive CHECK [--site S [--system X]]`: a waiver (or its end) recorded in the action
 * log; without --site it covers every system of the fleet.
 */
async function waiveCommand(io: CliIo, verb: 'waive' | 'unwaive', args: readonly string[]): Promise<number> {
  const { values, check, source } = oneCheckArgs(verb, args, {
    site: { type: 'string' },
    system: { type: 'string' },
    reason: { type: 'string' },
    until: { type: 'string' },
  });
  if (values.system !== undefined && values.site === undefined) throw new CliError('--system needs --site', EXIT.usage);
  if (verb === 'waive' && (values.reason === undefined || values.until === undefined)) throw new CliError('compliance waive needs --reason TEXT and --until ISO', EXIT.usage);
  return withRuntime(
    io,
    values['data-dir'],
    async (rt) => {
      const scope = { check, siteId: values.site !== undefined ? siteIdOf(rt, values.site) : '', system: values.system ?? '' };
      const service = serviceOn(rt, source);
      const where = values.site === undefined ? 'every system' : values.system === undefined ? `every system of ${values.site}` : `${values.system} of ${values.site}`;
      if (verb === 'waive') {
        const w = service.waive({ ...scope, reason: values.reason ?? '', until: values.until ?? '' });
        io.stdout(`check ${terminalField(check)} waived for ${terminalField(where)} until ${w.until} by ${terminalField(w.by)} (action log record ${w.seq})\n`);
      } else {
        service.unwaive(scope);
        io.stdout(`waiver of check ${terminalField(check)} for ${terminalField(where)} revoked\n`);
      }
      // The compliance alerts follow the waiver now, not at the next refresh.
      rt.alerts.evaluateAll();
      return EXIT.ok;
    },
    { secrets: false },
  );
}

/**
 * `fleetdeck compliance fix CHECK [--site NAME]... [--yes]`: the exact writes of a check's fix on
 * the systems where it fails without a waiver, printed and not sent; with `--yes` sent as bulk
 * changes (recorded in the action log), then the systems are read again and the check evaluated
 * again. Exits {@link EXIT.checksFailing} while the check still fails on a system it was sent to,
 * {@link EXIT.outcomeUnknown} or {@link EXIT.api} when a write's outcome is unknown or refused.
 */
async function fixCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const { values, check, source } = oneCheckArgs('fix', args, {
    site: { type: 'string', multiple: true, default: [] },
    yes: { type: 'boolean', default: false },
  });
  return withRuntime(io, values['data-dir'], async (rt) => {
    const siteIds = new Set((values.site ?? []).map((name) => siteIdOf(rt, name)));
    const service = serviceOn(rt, source);
    const scope = siteIds.size ? { siteIds } : {};
    const plan = service.fixPlan(check, scope);
    io.stdout(`fix of ${terminalField(plan.check)} (${terminalField(plan.title)}): ${terminalField(plan.fixTitle)}\n`);
    for (const w of plan.writes) printRow(io, [w.op, JSON.stringify(w.body), w.targets.map((t) => `${t.system} (${t.site})`).join(', ')], '  ');
    for (const l of plan.left) printRow(io, ['not covered', `${l.system} (${l.site})`, l.why], '  ');
    const count = plan.writes.reduce((n, w) => n + w.targets.length, 0);
    if (!count) {
      io.stdout('no system needs this fix\n');
      return EXIT.ok;
    }
    if (!values.yes) {
      io.stdout(`nothing sent: run again with --yes to send ${count === 1 ? 'this write' : `these ${count} writes`}\n`);
      return EXIT.ok;
    }
    let worst: number = EXIT.ok;
    for (const w of plan.writes) {
      const job = rt.bulk.start({ operation: w.op, targets: w.targets.map((t) => ({ siteId: t.siteId, system: t.system })), params: { body: w.body } });
      const done = await rt.bulk.settled(job.id);
      for (const t of done.targets) {
        printRow(io, [t.outcome, w.op, t.system, t.message ?? ''], '  ');
        if (t.outcome === 'unknown') worst = EXIT.outcomeUnknown;
        else if (t.outcome !== 'ok' && worst === EXIT.ok) worst = EXIT.api;
      }
    }
    // Read the systems sent to again, then evaluate the check there (the score is kept, the alerts follow).
    const targets = plan.writes.flatMap((w) => w.targets);
    await rt.fleet.refresh({ siteIds: [...new Set(targets.map((t) => t.siteId))], systems: [...new Set(targets.map((t) => t.system))], force: true });
    rt.alerts.evaluateAll();
    const after = service.evaluate(scope);
    let failing = 0;
    for (const t of new Map(targets.map((x) => [`${x.siteId}\u0000${x.system}`, x])).values()) {
      const outcome = after.systems.find((x) => x.siteId === t.siteId && x.system === t.system)?.checks.find((c) => c.id === check);
      const word = outcome ? RESULT_WORDS[effectiveResult(outcome)] : 'not evaluated';
      if (!outcome || effectiveResult(outcome) !== 'pass') failing++;
      printRow(io, ['now', word, check, `${t.system} (${t.site})`, outcome?.reason ?? ''], '  ');
    }
    return worst !== EXIT.ok ? worst : failing ? EXIT.checksFailing : EXIT.ok;
  });
}

/**
 * The arguments of a compliance command on one check (`waive`, `unwaive`, `fix`): its options with
 * the data directory and `--baseline`, exactly one check id, and the baseline file read when given.
 */
function oneCheckArgs<const O extends NonNullable<ParseArgsConfig['options']>>(verb: string, args: readonly string[], options: O) {
  const { values, positionals } = parseArgs({ args: [...args], strict: true, allowPositionals: true, options: { ...BASELINE_OPTIONS, ...options } });
  const [check, ...extra] = positionals;
  if (check === undefined || extra.length) throw new CliError(`compliance ${verb} takes one check id`, EXIT.usage);
  const { baseline } = values as { baseline?: string };
  return { values, check, source: baseline === undefined ? undefined : loadBaseline(baseline) };
}

/** The compliance service judging by the `--baseline` file when one was given, else by the data directory's baseline. */
function serviceOn(rt: Runtime, source: BaselineSource | undefined): ComplianceService {
  return source ? rt.compliance.withBaseline(source) : rt.compliance;
}

function siteIdOf(rt: Runtime, name: string): string {
  const site = rt.sites.get(name);
  if (!site) throw new CliError(`no site named "${name}"`, EXIT.usage);
  return site.id;
}

function printText(io: CliIo, result: FleetComplianceView): void {
  const meta: BaselineMeta = result.baseline;
  io.stdout(`baseline ${meta.name} ${meta.version} (sha256 ${meta.sha256})\n`);
  if (!result.systems.length) {
    io.stdout('no cached systems: refresh first (fleetdeck refresh)\n');
    return;
  }
  for (const s of result.systems) {
    const c = s.counts;
    printRow(io, [s.site, s.system, `${c.fail} fail, ${c.waived} waived, ${c['cannot-tell']} cannot tell, ${c.pass} pass, ${c['not-applicable']} not applicable${s.score !== undefined ? `; score ${s.score} %` : ''}`]);
    for (const check of worstFirst(s.checks)) {
      printRow(io, [RESULT_WORDS[effectiveResult(check)], check.severity, check.id, check.title, check.waiver ? `${check.reason}; ${waiverText(check.waiver)}` : check.reason, evidenceText(check.evidence)], '  ');
    }
  }
  if (result.changes.length) {
    io.stdout('changed since the previous evaluation:\n');
    for (const x of result.changes) {
      printRow(io, [CHANGE_WORDS[x.kind], x.severity, x.check, x.site, x.system, `was ${stateWord(x.from)}, is ${stateWord(x.to)}; previous evaluation ${x.since}, seen ${x.at}`], '  ');
    }
  } else {
    io.stdout(result.history.length <= 1 ? 'first evaluation kept: the next one says what changed\n' : 'no check changed since the previous evaluation\n');
  }
  const c = result.counts;
  io.stdout(`fleet: ${c.fail} fail, ${c.waived} waived, ${c['cannot-tell']} cannot tell, ${c.pass} pass${result.score !== undefined ? `; score ${result.score} %` : ''}\n`);
}

function evidenceText(e: Evidence | undefined): string {
  if (!e) return '';
  const when = e.at ? `, read ${e.at}${e.ageSeconds !== undefined ? ` (${ageText(e.ageSeconds)} ago)` : ''}` : ', not cached';
  const values = e.values.map((v) => `${v.item !== undefined ? `${v.item}: ` : ''}${v.field}=${v.value === undefined ? '(absent)' : JSON.stringify(v.value)}`);
  return `[${e.op}${when}]${values.length ? ` ${values.join('; ')}` : ''}`;
}

function ageText(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 360) / 10} h`;
  return `${Math.round(seconds / 86_400)} d`;
}

