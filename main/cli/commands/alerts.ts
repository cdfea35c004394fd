import { parseArgs } from 'node:util';
import type { Alert } from '../../../app/alerts/alert.js';
import { DATA_DIR, withRuntime } from '../context.js';
import { CliError, EXIT, printJson, printRow, type CliIo } from '../io.js';
import { noteUnread, unreadSites } from '../unread.js';

/**
 * `fleetdeck alerts [--site NAME] [--all] [--json]`: the alerts not cleared (with `--all`, the
 * cleared ones too), after evaluating every system's cached state with the rules in force. Exits
 * {@link EXIT.alertsOpen} when any alert is open (not acknowledged, not snoozed), else
 * {@link EXIT.notRead} when a site in scope has no system read (its alerts are unknown), else 0:
 * what a cron job or a monitoring agent checks.
 */
export async function alertsCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    options: { ...DATA_DIR, site: { type: 'string' }, all: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
  });
  return withRuntime(io, values['data-dir'], async (rt) => {
    const site = values.site !== undefined ? rt.sites.get(values.site) : undefined;
    if (values.site !== undefined && !site) throw new CliError(`no site named "${values.site}"`, EXIT.usage);
    // What the cache says now: alerts raised by the app's last refresh stay, what ended since is cleared.
    rt.alerts.evaluateAll();
    const filter = { ...(site ? { site: site.id } : {}), ...(values.all ? {} : { state: 'active' as const }) };
    const alerts = rt.alerts.list(filter);
    const open = alerts.some((a) => a.state === 'open');
    const unread = unreadSites(rt, site ? new Set([site.id]) : undefined);
    if (values.json) printJson(io, alerts);
    else if (!alerts.length) io.stdout('no alerts\n');
    else {
      const names = new Map(rt.sites.list().map((s) => [s.id, s.name]));
      for (const a of alerts) printRow(io, row(a, names.get(a.siteId) ?? a.siteId));
    }
    noteUnread(io, unread, 'alerts');
    return open ? EXIT.alertsOpen : unread.length ? EXIT.notRead : EXIT.ok;
  }, { secrets: false });
}

function row(a: Alert, siteName: string): string[] {
  const state = a.state === 'snoozed' ? `snoozed until ${a.snoozedUntil ?? '?'}` : a.state === 'cleared' ? `cleared ${a.clearedAt ?? ''}` : a.state;
  return [a.level, state, siteName, a.system, a.rule, ...(a.subject ? [a.subject] : []), a.message, `raised ${a.raisedAt}`];
}
