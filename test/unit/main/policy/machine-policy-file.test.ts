import { describe, expect, it, vi } from 'vitest';
import { POLICY_FILE_ENV, policyFileOf, readMachinePolicy, type PolicySources } from '../../../../main/policy/machine-policy-file.js';
import { PolicyGuard } from '../../../../main/policy/policy-guard.js';

const PIN = 'cd'.repeat(32);
const missing = () => Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });

/** Files by path, each with its owner and mode; anything else is missing. */
function machine(platform: NodeJS.Platform, files: Record<string, { text: string; uid?: number; mode?: number }>, over: Partial<PolicySources> = {}): PolicySources {
  return {
    platform,
    env: {},
    readFile: async (p) => {
      const f = files[p];
      if (!f) throw missing();
      return f.text;
    },
    stat: async (p) => {
      const f = files[p];
      if (!f) throw missing();
      return { uid: f.uid ?? 0, mode: f.mode ?? 0o100644 };
    },
    queryRegistry: async () => undefined,
    ...over,
  };
}
const ETC = '/etc/fleetdeck/policy.json';

describe('reading the machine policy', () => {
  it('lives in each OS\'s standard place', () => {
    expect(policyFileOf({ platform: 'linux' })).toBe('/etc/fleetdeck/policy.json');
    expect(policyFileOf({ platform: 'darwin' })).toBe('/Library/Application Support/Fleetdeck/policy.json');
    expect(policyFileOf({ platform: 'win32', env: { ProgramData: 'D:\\ProgramData' } })).toBe('D:\\ProgramData\\Fleetdeck\\policy.json');
    expect(policyFileOf({ platform: 'win32', env: {} })).toBe('C:\\ProgramData\\Fleetdeck\\policy.json');
  });

  it('is none when there is no file: nothing managed, nothing refused', async () => {
    const state = await readMachinePolicy(machine('linux', {}));
    expect(state).toMatchObject({ status: 'none', file: ETC, problems: [] });
    expect(state.readOnly).toBeUndefined();
  });

  it('applies a root-owned file: read-only with its reason, the update feed, the preset sites', async () => {
    const text = JSON.stringify({ version: 1, readOnly: true, readOnlyReason: 'Audit workstation', updateUrl: 'https://updates.example.corp/fd', sites: [{ id: 'lab', name: 'Lab', baseUrl: 'https://lab.example', username: 'audit', tls: { pinSha256: PIN } }] });
    const state = await readMachinePolicy(machine('linux', { [ETC]: { text } }));
    expect(state).toMatchObject({ status: 'applied', readOnly: 'Audit workstation', updateUrl: 'https://updates.example.corp/fd/' });
    expect(state.policy?.sites?.[0]?.id).toBe('lab');
    const guard = new PolicyGuard(state);
    expect(guard.isManaged('lab')).toBe(true);
    expect(() => guard.assertWritable('POST /volumes/create')).toThrow('POST /volumes/create is refused: Audit workstation');
  });

  it('is fail-closed: a malformed file is refused whole, names file, field and reason, and makes the workstation read-only', async () => {
    const text = JSON.stringify({ version: 1, minPollIntervalSeconds: 0, updateUrl: 'https://updates.example.corp/', sites: [{ id: 'lab', name: 'Lab', baseUrl: 'http://lab.example', username: 'u' }] });
    const state = await readMachinePolicy(machine('linux', { [ETC]: { text } }));
    expect(state.status).toBe('refused');
    expect(state.problems.map((p) => p.field)).toEqual(['minPollIntervalSeconds']);
    expect(state.readOnly).toMatch(/^the machine policy \/etc\/fleetdeck\/policy\.json is refused \(minPollIntervalSeconds: .+\); this workstation is read-only until IT fixes the file$/);
    // Nothing of it applies: no feed, no sites.
    expect(state.updateUrl).toBeUndefined();
    expect(state.policy).toBeUndefined();
  });

  it('refuses a preset site that `site add` would refuse, and one polled below the policy\'s own minimum', async () => {
    const plain = { id: 'lab', name: 'Lab', baseUrl: 'http://lab.example', username: 'u' };
    const refused = await readMachinePolicy(machine('linux', { [ETC]: { text: JSON.stringify({ sites: [plain] }) } }));
    expect(refused.problems).toEqual([{ field: 'sites[0]', reason: expect.stringMatching(/plain http to lab.example/) }]);
    const slow = { ...plain, baseUrl: 'http://127.0.0.1:9', polling: { intervalSeconds: 30 } };
    const below = await readMachinePolicy(machine('linux', { [ETC]: { text: JSON.stringify({ minPollIntervalSeconds: 60, sites: [slow] }) } }));
    expect(below.problems).toEqual([{ field: 'sites[0].polling.intervalSeconds', reason: '30 s is below the policy\'s minPollIntervalSeconds (60 s)' }]);
  });

  it('trusts the file only when root owns it and no one else may write it (read-only otherwise)', async () => {
    const text = '{"version":1}';
    for (const f of [{ text, uid: 1000 }, { text, mode: 0o100666 }, { text, mode: 0o100664 }]) {
      const state = await readMachinePolicy(machine('linux', { [ETC]: f }));
      expect(state.status).toBe('refused');
      expect(state.readOnly).toMatch(/it must be owned by root and writable by no one else/);
    }
    const unreadable = await readMachinePolicy(machine('linux', { [ETC]: { text } }, { readFile: async () => Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })) }));
    expect(unreadable.readOnly).toMatch(/cannot be read: EACCES/);
  });

  it('reads another file named by the environment only when the OS has none, and never its update feed', async () => {
    const mine = '/home/u/policy.json';
    const text = JSON.stringify({ readOnly: true, updateUrl: 'https://evil.example/' });
    const used = await readMachinePolicy(machine('linux', { [mine]: { text, uid: 1000 } }, { env: { [POLICY_FILE_ENV]: mine } }));
    expect(used).toMatchObject({ status: 'applied', file: mine });
    expect(used.readOnly).toBeDefined();
    expect(used.updateUrl).toBeUndefined();
    // Writable by others: refused, as the OS's own would be.
    expect((await readMachinePolicy(machine('linux', { [mine]: { text, uid: 1000, mode: 0o100646 } }, { env: { [POLICY_FILE_ENV]: mine } }))).status).toBe('refused');
    // The OS's own file wins: an override can never lift an auditor's read-only.
    const both = await readMachinePolicy(machine('linux', { [ETC]: { text: '{"readOnly":true}' }, [mine]: { text: '{}', uid: 1000 } }, { env: { [POLICY_FILE_ENV]: mine } }));
    expect(both).toMatchObject({ status: 'applied', file: ETC });
    expect(both.readOnly).toBeDefined();
    expect(both.notes).toEqual([expect.stringContaining(`${POLICY_FILE_ENV} is ignored`)]);
  });

  it('on Windows: the file under ProgramData, trusted by its ACL, and the Group Policy feed when the file names none', async () => {
    const file = 'C:\\ProgramData\\Fleetdeck\\policy.json';
    const owner = vi.fn(async () => ({ trusted: true }));
    const query = vi.fn(async () => '    UpdateUrl    REG_SZ    https://updates.example.corp/gpo\r\n');
    const state = await readMachinePolicy(machine('win32', { [file]: { text: '{"minPollIntervalSeconds":120}' } }, { windowsOwner: owner, queryRegistry: query }));
    expect(state).toMatchObject({ status: 'applied', updateUrl: 'https://updates.example.corp/gpo/' });
    expect(owner).toHaveBeenCalledWith(file);
    const userOwned = await readMachinePolicy(machine('win32', { [file]: { text: '{}' } }, { windowsOwner: async () => ({ trusted: false, why: 'S-1-5-32-545 may write it' }) }));
    expect(userOwned.readOnly).toMatch(/owned by Administrators and writable by no one else \(S-1-5-32-545 may write it\)/);
    // The file's own feed wins over the registry's.
    const own = await readMachinePolicy(machine('win32', { [file]: { text: '{"updateUrl":"https://a.example/"}' } }, { windowsOwner: owner, queryRegistry: query }));
    expect(own.updateUrl).toBe('https://a.example/');
  });

  it('shows what it manages in words, for the window', async () => {
    const text = JSON.stringify({ minPollIntervalSeconds: 300, syslog: { target: 'collector:6514' }, metrics: { listen: '127.0.0.1:9469' } });
    const view = new PolicyGuard(await readMachinePolicy(machine('linux', { [ETC]: { text } }))).view();
    expect(view).toMatchObject({ status: 'applied', minPollIntervalSeconds: 300, managedSites: [] });
    expect(view.managed).toEqual([
      { setting: 'minimum poll interval', value: '300 s' },
      { setting: 'audit trail collector (syslog)', value: 'tls://collector:6514' },
      { setting: 'metrics endpoint', value: '127.0.0.1:9469' },
    ]);
    expect(view.readOnly).toBeUndefined();
  });
});
