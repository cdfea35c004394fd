import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { InputError } from '../../app/errors.js';
import { parseMachinePolicy, problemText, type MachinePolicy, type PolicyProblem, type PresetSite } from '../../app/policy/machine-policy.js';
import type { Site } from '../../app/domain/site.js';
import type { PolicyState } from './policy-state.js';
import { checkSite } from '../store/site-checks.js';
import { DEFAULT_POLLING } from '../store/site-store.js';

/*
 * The one reader of the machine policy: the policy file in the OS's standard place (and, on
 * Windows, the Group Policy registry value of the update feed). The file is trusted only when an
 * administrator owns it and no one else may write it. Fail-closed: a file that is there but cannot
 * be used (unreadable, wrong owner, malformed) is refused whole and the workstation is read-only
 * until IT fixes it, so an auditor's read-only never silently vanishes. Nothing else of a refused
 * policy applies: no preset site, no forced setting, no update feed.
 */

/** Where the machine policy lives, per OS: only administrators can write there. */
export const POLICY_FILES: Partial<Record<NodeJS.Platform, string>> = {
  linux: '/etc/fleetdeck/policy.json',
  darwin: '/Library/Application Support/Fleetdeck/policy.json',
};
/** On Windows: `%ProgramData%\Fleetdeck\policy.json`. */
export const WINDOWS_POLICY_FILE = ['Fleetdeck', 'policy.json'] as const;
/** On Windows, the update feed may also come from a REG_SZ value under HKLM (what Group Policy writes). */
export const POLICY_REGISTRY = { key: 'HKLM\\SOFTWARE\\Policies\\Fleetdeck', value: 'UpdateUrl' } as const;
/**
 * Environment variable naming another policy file, for tests and for trying a policy out. Used only
 * when the OS's own file does not exist (so it can never lift an auditor's read-only), and never
 * for the update feed (a user's process could set it).
 */
export const POLICY_FILE_ENV = 'FLEETDECK_POLICY_FILE';

/** How the policy is read (tests hand in fakes). */
export interface PolicySources {
  platform: NodeJS.Platform;
  /** The process environment (`ProgramData`, {@link POLICY_FILE_ENV}); default: none. */
  env?: Readonly<Record<string, string | undefined>>;
  readFile(path: string): Promise<string>;
  /** Owner and mode of a file. */
  stat(path: string): Promise<{ uid: number; mode: number }>;
  /** `reg query`'s output for a value, or undefined when the key or value does not exist. */
  queryRegistry(key: string, value: string): Promise<string | undefined>;
  /** Windows: whether an administrator (or SYSTEM) owns the file and no one else may write it; why not. */
  windowsOwner?(path: string): Promise<{ trusted: boolean; why?: string }>;
}

/** The policy as this machine holds it: its file, and `reg query` on Windows. */
export function nodePolicySources(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>> = process.env): PolicySources {
  return {
    platform,
    env,
    readFile: (path) => readFile(path, 'utf8'),
    stat: (path) => stat(path),
    queryRegistry: (key, value) =>
      new Promise((resolve) => {
        // reg.exe exits 1 when the key or value does not exist.
        execFile('reg', ['query', key, '/v', value], { windowsHide: true, timeout: 10_000 }, (err, stdout) => resolve(err ? undefined : stdout));
      }),
    windowsOwner: windowsAclOwner,
  };
}

/** SIDs that may own and write the policy on Windows: SYSTEM, Administrators, TrustedInstaller. */
const WINDOWS_ADMIN_SIDS = new Set(['S-1-5-18', 'S-1-5-32-544', 'S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464']);

/** The file's owner and write grants, from PowerShell's Get-Acl (SIDs, so any display language reads the same). */
function windowsAclOwner(path: string): Promise<{ trusted: boolean; why?: string }> {
  const script =
    '$a = Get-Acl -LiteralPath $env:FD_POLICY; $o = $a.GetOwner([System.Security.Principal.SecurityIdentifier]).Value; ' +
    "$w = $a.GetAccessRules($true, $true, [System.Security.Principal.SecurityIdentifier]) | Where-Object { $_.AccessControlType -eq 'Allow' -and ($_.FileSystemRights -band 0x116) } | ForEach-Object { $_.IdentityReference.Value }; " +
    'ConvertTo-Json @{ owner = $o; writers = @($w) } -Compress';
  return new Promise((resolve) => {
    execFile('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', script], { windowsHide: true, timeout: 15_000, env: { ...process.env, FD_POLICY: path } }, (err, stdout) => {
      if (err) return resolve({ trusted: false, why: `its owner cannot be read (${err.message.split('\n')[0] ?? ''})` });
      try {
        const acl = JSON.parse(stdout) as { owner: string; writers: string[] };
        if (!WINDOWS_ADMIN_SIDS.has(acl.owner)) return resolve({ trusted: false, why: `it is owned by ${acl.owner}, not by Administrators or SYSTEM` });
        const others = acl.writers.filter((sid) => !WINDOWS_ADMIN_SIDS.has(sid));
        resolve(others.length ? { trusted: false, why: `${others.join(', ')} may write it` } : { trusted: true });
      } catch {
        resolve({ trusted: false, why: 'its owner cannot be read' });
      }
    });
  });
}

export type { PolicyState } from './policy-state.js';

/** No policy: nothing managed, nothing refused. */
export function noPolicy(file = '(none)'): PolicyState {
  return { file, status: 'none', problems: [], notes: [] };
}

/** The OS's own policy file, or undefined on a platform without one. */
export function policyFileOf(s: Pick<PolicySources, 'platform' | 'env'>): string | undefined {
  if (s.platform === 'win32') return `${(s.env?.ProgramData ?? 'C:\\ProgramData').replace(/[\\/]+$/, '')}\\${WINDOWS_POLICY_FILE.join('\\')}`;
  return POLICY_FILES[s.platform];
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** A refused policy: read-only, saying which file and why. */
function refused(file: string, problems: PolicyProblem[], notes: string[]): PolicyState {
  const why = problems.map(problemText).join('; ');
  return {
    file,
    status: 'refused',
    problems,
    notes,
    readOnly: `the machine policy ${file} is refused (${why}); this workstation is read-only until IT fixes the file`,
  };
}

/**
 * Reads and checks the machine policy. Never throws: a policy that cannot be used comes back
 * `refused`, read-only, with each problem named (file, field, reason).
 */
export async function readMachinePolicy(s: PolicySources): Promise<PolicyState> {
  const notes: string[] = [];
  const own = policyFileOf(s);
  const override = s.env?.[POLICY_FILE_ENV];
  let file = own;
  let text: string | undefined;
  let st: { uid: number; mode: number } | undefined;
  if (own) {
    try {
      st = await s.stat(own);
      text = await s.readFile(own);
    } catch (err) {
      if (!isMissing(err)) return refused(own, [{ field: 'top level', reason: `cannot be read: ${err instanceof Error ? err.message : String(err)}` }], notes);
    }
  }
  const fromOverride = text === undefined && override !== undefined && override !== '';
  if (text === undefined && fromOverride) {
    file = override;
    try {
      st = await s.stat(override);
      text = await s.readFile(override);
    } catch (err) {
      return refused(override, [{ field: 'top level', reason: `cannot be read: ${err instanceof Error ? err.message : String(err)}` }], notes);
    }
  } else if (text !== undefined && override) {
    notes.push(`${POLICY_FILE_ENV} is ignored: the machine policy ${own ?? ''} applies`);
  }
  if (text === undefined || file === undefined) return withRegistryFeed(s, noPolicy(own ?? '(none)'));

  const ownerProblem = await ownership(s, file, st, fromOverride);
  if (ownerProblem) return refused(file, [{ field: 'top level', reason: ownerProblem }], notes);

  const parsed = parseMachinePolicy(text);
  if (!parsed.ok) return refused(file, parsed.problems, notes);
  const policy = parsed.policy;
  const siteProblems = checkPresetSites(policy);
  if (siteProblems.length > 0) return refused(file, siteProblems, notes);

  const state: PolicyState = { file, status: 'applied', policy, problems: [], notes };
  if (policy.readOnly) state.readOnly = policy.readOnlyReason ?? `this workstation is read-only by the machine policy (${file}): it shows the fleet and changes nothing`;
  if (policy.updateUrl !== undefined) {
    if (fromOverride) notes.push(`the update feed of ${file} is not used: the feed comes from the OS's own policy file only`);
    else state.updateUrl = feedUrl(policy.updateUrl);
    return state;
  }
  return fromOverride ? state : withRegistryFeed(s, state);
}

/** Why the file is not trusted, or undefined: POSIX root-owned and writable by no one else; Windows by ACL. */
async function ownership(s: PolicySources, file: string, st: { uid: number; mode: number } | undefined, fromOverride: boolean): Promise<string | undefined> {
  if (s.platform === 'win32') {
    if (fromOverride) return undefined;
    const acl = s.windowsOwner ? await s.windowsOwner(file) : { trusted: false, why: 'its owner cannot be checked' };
    return acl.trusted ? undefined : `it must be owned by Administrators and writable by no one else (${acl.why ?? 'not so'})`;
  }
  if (!st) return 'its owner cannot be read';
  // An override file (tests, trying a policy out) may be the user's own, but never writable by others.
  if (fromOverride) return (st.mode & 0o022) !== 0 ? 'it must be writable by no one but its owner' : undefined;
  return st.uid !== 0 || (st.mode & 0o022) !== 0 ? 'it must be owned by root and writable by no one else' : undefined;
}

/** The Windows Group Policy value of the update feed, when the file names none. */
async function withRegistryFeed(s: PolicySources, state: PolicyState): Promise<PolicyState> {
  if (s.platform !== 'win32' || state.status === 'refused') return state;
  const out = await s.queryRegistry(POLICY_REGISTRY.key, POLICY_REGISTRY.value).catch(() => undefined);
  if (out === undefined) return state;
  const where = `${POLICY_REGISTRY.key}\\${POLICY_REGISTRY.value}`;
  const m = new RegExp(`^\\s*${POLICY_REGISTRY.value}\\s+REG_(?:EXPAND_)?SZ\\s+(.+?)\\s*$`, 'im').exec(out);
  const value = m?.[1]?.trim();
  if (!value) return { ...state, updateProblem: `${where} has no update URL` };
  try {
    if (new URL(value).protocol !== 'https:') return { ...state, updateProblem: `${where}: the update URL must be https` };
  } catch {
    return { ...state, updateProblem: `${where}: the update URL is not a URL` };
  }
  return { ...state, updateUrl: feedUrl(value) };
}

/** electron-updater's generic feed wants a folder URL. */
function feedUrl(url: string): string {
  const href = new URL(url.trim()).href;
  return href.endsWith('/') ? href : `${href}/`;
}

/** A preset site as it is stored: `site add`'s defaults for what the policy leaves out. */
export function presetToSite(p: PresetSite, at: string): Site {
  const site: Site = {
    id: p.id,
    name: p.name,
    baseUrl: p.baseUrl,
    username: p.username,
    tags: p.tags ?? [],
    tls: { ...p.tls },
    allowHttp: p.allowHttp ?? false,
    polling: { ...DEFAULT_POLLING, ...p.polling },
    createdAt: at,
    updatedAt: at,
  };
  if (p.group !== undefined) site.group = p.group;
  return site;
}

/** The preset sites under `site add`'s rules, each against those before it, and above the minimum interval. */
function checkPresetSites(policy: MachinePolicy): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  const before: Site[] = [];
  const min = policy.minPollIntervalSeconds;
  policy.sites?.forEach((p, i) => {
    try {
      before.push(checkSite(presetToSite(p, ''), before));
      const interval = p.polling?.intervalSeconds;
      if (min !== undefined && interval !== undefined && interval > 0 && interval < min) {
        problems.push({ field: `sites[${i}].polling.intervalSeconds`, reason: `${interval} s is below the policy's minPollIntervalSeconds (${min} s)` });
      }
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      problems.push({ field: `sites[${i}]`, reason: err.message });
    }
  });
  return problems;
}
