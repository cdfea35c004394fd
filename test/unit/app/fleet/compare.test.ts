import { describe, expect, it } from 'vitest';
import { ABSENT, NOT_REPORTED, compareConfig, compareTable, type ConfigSystem } from '../../../../app/fleet/compare.js';

const base = (system: string, over: Partial<ConfigSystem> = {}): ConfigSystem => ({
  siteId: 's1',
  siteName: 'dc-one',
  system,
  users: [
    { Name: 'admin', Role: 'Administrator', Email: 'a@example.com', TwoStepAuthenticationEnabled: true, Password: '[redacted]' },
    { Name: 'ops', Role: 'Monitor', Email: 'ops@example.com' },
  ],
  notifications: {
    EmailSettings: { MailServerAddress: 'smtp.example.com', MailServerPort: 587, SendingEmailAddress: 'fleet@example.com', ValidateCertificate: true },
    NotificationTargets: [{ Name: 'ops-email', Type: 0, MinEventLevel: 3, IsEnabled: true }],
  },
  nodes: [
    { Name: `${system}-n1`, TargetChap: { ChapName: 'tgt', ChapSecret: '[redacted]' }, Isns: { IsnsAddress: '10.0.0.9', AccessControl: false } },
    { Name: `${system}-n2`, TargetChap: { ChapName: 'tgt', ChapSecret: '[redacted]' }, Isns: { IsnsAddress: '10.0.0.9', AccessControl: false } },
  ],
  templates: [{ Application: 'Database', Description: 'db', Volumes: [{ Volume: 'data', CapacityInBytes: 2 * 1024 ** 4, Pool: 'hdd-pool', N: 8, K: 2 }] }],
  floatingIps: [{ Name: 'mgmt-vip', Address: '10.1.1.10', Mask: '255.255.255.0', Interfaces: ['eth0'] }],
  ...over,
});
const line = (lines: ReturnType<typeof compareConfig>, section: string, item: string, field: string) => lines.find((l) => l.section === section && l.item === item && l.field === field);

describe('configuration compared across systems', () => {
  it('marks nothing when the systems agree', () => {
    const lines = compareConfig([base('a'), base('b'), base('c')]);
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.filter((l) => l.differs)).toEqual([]);
  });

  it('marks a role, a missing target and a different iSNS server as differences', () => {
    const b = base('b', { users: [{ Name: 'admin', Role: 'Administrator', Email: 'a@example.com', TwoStepAuthenticationEnabled: true }, { Name: 'ops', Role: 'Administrator', Email: 'ops@example.com' }] });
    b.notifications = { ...b.notifications, NotificationTargets: [] };
    b.nodes = [{ Name: 'b-n1', TargetChap: { ChapName: '' }, Isns: { IsnsAddress: '10.0.0.8', AccessControl: false } }];
    const lines = compareConfig([base('a'), b]);
    expect(line(lines, 'Users', 'ops', 'Role')).toMatchObject({ values: ['Monitor', 'Administrator'], differs: true });
    expect(line(lines, 'Users', 'admin', 'Role')?.differs).toBe(false);
    expect(line(lines, 'Notification targets', 'ops-email', 'Enabled')).toMatchObject({ values: ['yes', ABSENT], differs: true });
    expect(line(lines, 'CHAP and iSNS', '', 'iSNS server')).toMatchObject({ values: ['10.0.0.9', '10.0.0.8'], differs: true });
    expect(line(lines, 'CHAP and iSNS', '', 'Target CHAP secret')).toMatchObject({ values: ['set', 'not set'], differs: true });
  });

  it('names enumerations reported as numbers: target kind, minimum level, secure socket option', () => {
    const b = base('b');
    b.notifications = { ...b.notifications, EmailSettings: { ...b.notifications?.EmailSettings, SecureSocketOption: 3 }, NotificationTargets: [{ Name: 'ops-email', Type: 3, MinEventLevel: 4, IsEnabled: true }] };
    const a = base('a');
    a.notifications = { ...a.notifications, EmailSettings: { ...a.notifications?.EmailSettings, SecureSocketOption: 1 } };
    const lines = compareConfig([a, b]);
    expect(line(lines, 'Notification targets', 'ops-email', 'Type')).toMatchObject({ values: ['E-mail', 'SNMP'], differs: true });
    expect(line(lines, 'Notification targets', 'ops-email', 'Minimum level')).toMatchObject({ values: ['Warning', 'Error'], differs: true });
    expect(line(lines, 'E-mail settings', '', 'Secure socket option')).toMatchObject({ values: ['Auto', 'StartTls'], differs: true });
  });

  it('compares secrets as set or not set only and never carries a secret value', () => {
    const secret = 'hunter2-chap-secret';
    const a = base('a', { nodes: [{ Name: 'a-n1', TargetChap: { ChapName: 'tgt', ChapSecret: secret } }] });
    const lines = compareConfig([a, base('b')]);
    expect(JSON.stringify(lines)).not.toContain(secret);
    expect(JSON.stringify(lines)).not.toContain('[redacted]');
    expect(line(lines, 'CHAP and iSNS', '', 'Target CHAP secret')).toMatchObject({ values: ['set', 'set'], differs: false });
  });

  it('says "not reported" for a system whose read is not cached, and does not count it as a difference', () => {
    const lines = compareConfig([base('a'), base('b', { templates: undefined })]);
    expect(line(lines, 'Templates', 'Database', 'Description')).toMatchObject({ values: ['db', NOT_REPORTED], differs: false, incomplete: true });
  });

  it('exports one column per system and the differs mark', () => {
    const systems = [base('a'), base('b', { floatingIps: [{ Name: 'mgmt-vip', Address: '10.2.1.10', Mask: '255.255.255.0', Interfaces: ['eth0'] }] })];
    const t = compareTable(systems, compareConfig(systems));
    expect(t.columns).toEqual(['Section', 'Item', 'Setting', 'dc-one/a', 'dc-one/b', 'Differs']);
    expect(t.rows).toContainEqual(['Floating IPs', 'mgmt-vip', 'Address', '10.1.1.10', '10.2.1.10', true]);
  });
});
