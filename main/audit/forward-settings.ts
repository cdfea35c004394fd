import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { checkForwardSetting, effectiveForward, forwardSettingSchema, type ForwardPolicy, type ForwardSetting } from '../../app/domain/syslog-forward.js';
import { ManagedError } from '../../app/errors.js';
import { redact } from '../../app/redact.js';
import type { ActionLog } from '../store/action-log.js';
import { ensureDataDir, fsyncDir } from '../store/data-dir.js';
import { StoreError } from '../store/store-error.js';

/** The admin's forwarding setting in the data directory (absent: forwarding is off). */
export const FORWARD_SETTINGS_FILE = 'syslog-forward.json';

/**
 * Reads the admin's setting; undefined when none is set.
 * @throws StoreError naming the file when it is not a valid setting (never silently ignored: the
 *   admin believes the trail is forwarded)
 */
export function readForwardSetting(dataDir: string): ForwardSetting | undefined {
  const file = path.join(dataDir, FORWARD_SETTINGS_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StoreError(`cannot read ${file} (the syslog forwarding setting): ${(err as Error).message}`, file, 'io', { cause: err });
  }
  try {
    return checkForwardSetting(forwardSettingSchema.parse(JSON.parse(text)));
  } catch (err) {
    throw new StoreError(`${file} (the syslog forwarding setting) is not valid: ${(err as Error).message}; set it again with "fleetdeck log forward --to …" or turn forwarding off with "fleetdeck log forward --off"`, file, 'damaged', { cause: err });
  }
}

/** The modification stamp of the setting file ('' when absent): the forwarder re-reads it when this changes. */
export function forwardSettingStamp(dataDir: string): string {
  try {
    const st = fs.statSync(path.join(dataDir, FORWARD_SETTINGS_FILE));
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return '';
  }
}

/**
 * Writes the admin's setting (checked first; undefined turns forwarding off), complete or not at
 * all: a temporary file (0600) renamed into place.
 * @throws InputError for an invalid setting; StoreError when the file cannot be written
 */
export function writeForwardSetting(dataDir: string, setting: ForwardSetting | undefined): ForwardSetting | undefined {
  const checked = setting ? checkForwardSetting(setting) : undefined;
  ensureDataDir(dataDir);
  const file = path.join(dataDir, FORWARD_SETTINGS_FILE);
  try {
    if (!checked) {
      fs.rmSync(file, { force: true });
    } else {
      const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
      try {
        fs.writeFileSync(tmp, `${JSON.stringify(checked, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
        const fd = fs.openSync(tmp, 'r');
        fs.fsyncSync(fd);
        fs.closeSync(fd);
        fs.renameSync(tmp, file);
      } finally {
        fs.rmSync(tmp, { force: true });
      }
    }
    fsyncDir(dataDir);
  } catch (err) {
    throw new StoreError(`cannot write ${file} (the syslog forwarding setting): ${(err as Error).message}`, file, 'io', { cause: err });
  }
  return checked;
}

/** The setting in force on this data directory: the policy's when it forces one, else the admin's. */
export function forwardSettingInForce(dataDir: string, policy: ForwardPolicy | undefined): { setting: ForwardSetting | undefined; managed: boolean } {
  if (policy !== undefined) return effectiveForward(policy, undefined);
  return effectiveForward(undefined, readForwardSetting(dataDir));
}

/**
 * Changes the admin's setting (undefined: off), recorded in the action log as a change made in
 * Fleetdeck (target and kind of trust; a CA is named, not copied): turning the audit trail off is
 * itself part of the trail.
 * @throws ManagedError when the policy manages the setting; InputError when the setting is invalid; StoreError when
 *   the file or the log cannot be written
 */
export function changeForwardSetting(o: {
  dataDir: string;
  policy: ForwardPolicy | undefined;
  actionLog: Pick<ActionLog, 'recordLocal'>;
  user: string;
  setting: ForwardSetting | undefined;
}): ForwardSetting | undefined {
  if (o.policy !== undefined) throw new ManagedError('syslog forwarding is managed by your organisation (the machine policy sets it): it cannot be changed here');
  const checked = o.setting ? checkForwardSetting(o.setting) : undefined;
  const written = writeForwardSetting(o.dataDir, checked);
  o.actionLog.recordLocal({
    user: o.user,
    operation: written ? 'syslog forwarding on' : 'syslog forwarding off',
    params: redact(written ? { target: written.target, trust: written.pinSha256 ? { pinSha256: written.pinSha256 } : written.ca ? 'ca' : written.target.startsWith('tls:') ? 'system' : 'none' } : {}),
    message: redact(written ? `the action log is forwarded to ${written.target}` : 'the action log is no longer forwarded'),
  });
  return written;
}
