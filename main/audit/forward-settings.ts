import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { checkForwardSetting, effectiveForward, forwardSettingSchema, type ForwardPolicy, type ForwardSetting } from '../../app/domain/syslog-forward.js';
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
