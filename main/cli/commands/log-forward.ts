import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { formatFingerprint } from '../../../app/fingerprint.js';
import type { ForwardStatus } from '../../../app/domain/syslog-forward.js';
import { terminalField } from '../../../app/safe-text.js';
import { forwardSettingStamp } from '../../audit/forward-settings.js';
import { SyslogForwarder, storedStatus } from '../../audit/syslog-forwarder.js';
import { verifySyslogFile, type SyslogVerification } from '../../audit/syslog-verify.js';
import type { Runtime } from '../../runtime.js';
import { DATA_DIR, withRuntime } from '../context.js';
import { CliError, EXIT, printJson, type CliIo } from '../io.js';

/**
 * `fleetdeck log forward --to tcp://HOST:PORT|tls://HOST:PORT [--trust SHA256|--ca FILE]`,
 * `log forward --off`, `log forward --flush [--timeout SECONDS]`: sets where the action log is
 * forwarded (the app and a running monitor pick it up within seconds), or sends what is queued and
 * waits until the collector confirmed it.
 */
export async function logForwardCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      ...DATA_DIR,
      to: { type: 'string' },
      trust: { type: 'string' },
      ca: { type: 'string' },
      off: { type: 'boolean', default: false },
      flush: { type: 'boolean', default: false },
      timeout: { type: 'string' },
    },
  });
  const modes = [values.to !== undefined, values.off, values.flush].filter(Boolean).length;
  if (modes !== 1) throw new CliError('log forward takes one of --to tcp://HOST:PORT|tls://HOST:PORT, --off or --flush', EXIT.usage);
  if ((values.trust || values.ca) && values.to === undefined) throw new CliError('--trust and --ca go with --to', EXIT.usage);
  return withRuntime(io, values['data-dir'], async (rt) => {
    if (values.flush) return flush(io, rt, values.timeout);
    if (!rt.forwarding) throw new CliError(`${rt.actionLog.unusable?.message ?? 'the action log cannot be used'}`, EXIT.store);
    if (values.off) {
      rt.forwarding.set(undefined);
      const queued = rt.outbox?.pending() ?? 0;
      io.stdout(`syslog forwarding is off; ${queued} record(s) stay queued and are sent when it is turned on again\n`);
      return EXIT.ok;
    }
    let ca: string | undefined;
    if (values.ca) {
      try {
        ca = fs.readFileSync(values.ca, 'utf8');
      } catch (err) {
        throw new CliError(`cannot read the CA file ${values.ca}: ${(err as Error).message}`, EXIT.usage);
      }
    }
    rt.forwarding.set({ target: values.to as string, ...(values.trust ? { pinSha256: values.trust } : {}), ...(ca ? { ca } : {}) });
    const set = rt.forwardSetting().setting;
    const trust = set?.pinSha256 ? `, certificate pinned ${formatFingerprint(set.pinSha256)}` : set?.ca ? ', certificate verified with the given CA' : set?.target.startsWith('tls:') ? ", certificate verified with the system's CAs" : ' (in clear: use tls:// across networks)';
    io.stdout(`the action log is forwarded to ${set?.target ?? ''}${trust}; ${rt.outbox?.pending() ?? 0} record(s) queued. The app and "fleetdeck monitor" send them; "fleetdeck log forward --flush" sends them now\n`);
    return EXIT.ok;
  }, { secrets: false });
}

async function flush(io: CliIo, rt: Runtime, timeoutText: string | undefined): Promise<number> {
  const seconds = timeoutText === undefined ? 60 : Number(timeoutText);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new CliError(`--timeout takes seconds, more than 0, not "${timeoutText}"`, EXIT.usage);
  if (!rt.outbox) throw new CliError(`${rt.actionLog.unusable?.message ?? 'the action log cannot be used'}`, EXIT.store);
  const current = rt.forwardSetting();
  if (!current.setting) throw new CliError('syslog forwarding is off: turn it on with "fleetdeck log forward --to tcp://HOST:PORT" first', EXIT.usage);
  const forwarder = new SyslogForwarder({ outbox: rt.outbox, setting: rt.forwardSetting, settingStamp: () => forwardSettingStamp(rt.dataDir) });
  forwarder.start();
  let done: boolean;
  try {
    done = await forwarder.flushed(seconds * 1000);
  } finally {
    await forwarder.stop();
  }
  const status = storedStatus(rt.outbox, current);
  if (done) {
    io.stdout(`every record is confirmed by ${status.target ?? ''} (up to seq ${status.ackedSeq})\n`);
    return EXIT.ok;
  }
  throw new CliError(`${status.queued} record(s) still queued after ${seconds} s${status.lastError ? `; last error: ${terminalField(status.lastError)}` : ''}; they stay queued`, EXIT.unreachable);
}

/** `fleetdeck log forward-status [--json]`: the forwarding state as stored (any process). */
export async function logForwardStatusCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { ...DATA_DIR, json: { type: 'boolean', default: false } } });
  return withRuntime(io, values['data-dir'], async (rt) => {
    if (!rt.outbox) throw new CliError(`${rt.actionLog.unusable?.message ?? 'the action log cannot be used'}`, EXIT.store);
    let current: ReturnType<Runtime['forwardSetting']>;
    let settingError: string | undefined;
    try {
      current = rt.forwardSetting();
    } catch (err) {
      current = { setting: undefined, managed: false };
      settingError = (err as Error).message;
    }
    const status: ForwardStatus = { ...storedStatus(rt.outbox, current), ...(settingError ? { lastError: settingError } : {}) };
    if (values.json) printJson(io, status);
    else io.stdout(describeStatus(status));
    return settingError ? EXIT.store : EXIT.ok;
  }, { secrets: false });
}

const STATE_TEXT: Record<ForwardStatus['state'], string> = {
  off: 'off',
  connecting: 'connecting (retrying after an error)',
  sending: 'sending',
  idle: 'up to date',
  standby: 'another Fleetdeck process on this data directory forwards',
  'not-running': 'no Fleetdeck process forwards now (start the app or "fleetdeck monitor", or run "fleetdeck log forward --flush"); new records wait in the queue until one does',
};

/** The status as lines for a terminal. */
export function describeStatus(s: ForwardStatus): string {
  const lines = [
    `target:        ${s.target ?? 'none (forwarding is off)'}${s.managed ? ' (managed by your organisation)' : ''}`,
    ...(s.trust && s.trust !== 'none' ? [`trust:         ${s.trust === 'pinned' ? `pinned ${formatFingerprint(s.pinSha256 ?? '')}` : s.trust === 'ca' ? 'the given CA' : "the system's CAs"}`] : []),
    `state:         ${STATE_TEXT[s.state]}`,
    `log id:        ${s.logId}`,
    `acknowledged:  ${s.ackedSeq > 0 ? `up to seq ${s.ackedSeq}${s.ackedAt ? ` at ${s.ackedAt}` : ''}` : 'nothing yet'}`,
    `queued:        ${s.queued} record(s)`,
    `last error:    ${s.lastError ? `${terminalField(s.lastError)}${s.lastErrorAt ? ` at ${s.lastErrorAt}` : ''}` : 'none'}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** `fleetdeck log verify --syslog FILE [--json]`: verifies a collector's file. Exit 1 when a chain is broken or records are missing. */
export async function verifySyslogCommand(io: CliIo, file: string, json: boolean): Promise<number> {
  let result: SyslogVerification;
  try {
    result = await verifySyslogFile(file);
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`, EXIT.usage);
  }
  if (json) printJson(io, result);
  else io.stdout(describeVerification(result));
  if (result.ok) return EXIT.ok;
  throw new CliError(
    result.chains.length === 0 ? `syslog verification FAILED: ${file} holds no Fleetdeck record (${result.lines} line(s) read)` : `syslog verification FAILED: a chain is broken or records are missing in ${file}`,
    EXIT.api,
  );
}

function ranges(missing: Array<{ from: number; to: number }>): string {
  return missing.map((m) => (m.from === m.to ? String(m.from) : `${m.from}–${m.to}`)).join(', ');
}

function describeVerification(r: SyslogVerification): string {
  const out: string[] = [];
  for (const c of r.chains) {
    const head = `log ${terminalField(c.logId)}${c.hosts.length ? ` (${c.hosts.map(terminalField).join(', ')})` : ''}: records ${c.firstSeq}–${c.lastSeq}, ${c.records} found, ${c.duplicates} duplicate(s)`;
    const ok = c.missing.length === 0 && c.problems.length === 0;
    out.push(`${head}: ${ok ? `chain intact up to seq ${c.lastSeq}${c.lastAt ? ` (${c.lastAt})` : ''}` : 'BROKEN'}`);
    if (c.missing.length) out.push(`  missing: ${ranges(c.missing)}`);
    for (const p of c.problems.slice(0, 50)) out.push(`  record ${p.seq} (line ${p.line}): ${p.reason}`);
    if (c.problems.length > 50) out.push(`  … and ${c.problems.length - 50} more problem(s)`);
  }
  out.push(`${r.messages} Fleetdeck message(s) in ${r.lines} line(s); records after the last one found cannot be known from the file: compare with "fleetdeck log forward-status" on the workstation`);
  return `${out.join('\n')}\n`;
}
