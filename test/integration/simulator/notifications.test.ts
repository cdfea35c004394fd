import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailSettingsShow, NotificationRecord, NotificationSettings, NotificationTarget } from '../../../app/catalog/resources.js';
import { harness } from './support.js';
import type { Harness } from './support.js';

type Records = { Data: NotificationRecord[] };

describe('notifications', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ sites: 1, systems: 1 });
  });
  afterAll(async () => h.close());

  it('keeps seeded history and writes a record for every write, with increasing ids', async () => {
    const before = await h.call<Records>('GET /notifications/query', { query: { descendingOrder: true, top: 1 } });
    const lastId = before.Data[0]?.Id ?? 0;
    expect(lastId).toBeGreaterThan(20);
    await h.call('POST /hosts/create', { body: { Name: 'audit-host' } });
    await h.call('PUT /settings/anomaly_detection/edit', { body: { Timeframe_days: 14 } });
    const after = await h.call<Records>('GET /notifications/query', { query: { descendingOrder: true, top: 2 } });
    expect(after.Data.map((r) => r.Id)).toEqual([lastId + 2, lastId + 1]);
    expect(after.Data[1]).toMatchObject({ Module: 'Hosts', Level: 2, Message: "Host 'audit-host' created.", Properties: { User: 'admin' } });
    expect(after.Data[0]?.Module).toBe('Settings');
    const all = await h.call<Records>('GET /notifications/query');
    const ids = all.Data.map((r) => r.Id ?? 0);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('filters by every query parameter', async () => {
    const nodes = (await h.call<{ Data: Array<{ Name: string }> }>('GET /nodes/list')).Data.map((n) => n.Name);
    await h.call('POST /notifications/test', { body: { Node: nodes[1], Level: 'Error', Module: 'Hardware', Message: 'probe one' } });
    h.sim.control.advanceClock(120);
    await h.call('POST /notifications/test', { body: { Node: nodes[0], Level: '4', Module: 'Network', Message: 'probe two' } });
    const q = (query: Record<string, unknown>): Promise<Records> => h.call<Records>('GET /notifications/query', { query });
    expect((await q({ nodes: [nodes[1]], modules: ['hardware'], minLevel: 'Error' })).Data.map((r) => r.Message)).toContain('probe one');
    expect((await q({ levels: ['4'], modules: ['Network'] })).Data.map((r) => r.Message)).toContain('probe two');
    expect((await q({ minLevel: 'Critical' })).Data.every((r) => (r.Level ?? 0) >= 5)).toBe(true);
    expect((await q({ levels: ['Warning', 'Error'] })).Data.every((r) => r.Level === 3 || r.Level === 4)).toBe(true);
    const late = await q({ startTimestamp: new Date(h.sim.clock.now() - 60_000).toISOString().slice(0, 19) });
    expect(late.Data.map((r) => r.Message)).toContain('probe two');
    expect(late.Data.map((r) => r.Message)).not.toContain('probe one');
    const early = await q({ endTimestamp: new Date(h.sim.clock.now() - 60_000).toISOString().slice(0, 19), search: 'hardware' });
    expect(early.Data.map((r) => r.Message)).toContain('probe one');
    expect(early.Data.every((r) => r.Module === 'Hardware')).toBe(true);
    const bySystem = await q({ search: h.sim.manifest.sites[0]!.systems[0]!.toUpperCase(), top: 5 });
    expect(bySystem.Data).toHaveLength(5);
    const asc = await q({ top: 3 });
    const desc = await q({ top: 3, descendingOrder: true });
    expect((asc.Data[0]?.Id ?? 0) < (desc.Data[0]?.Id ?? 0)).toBe(true);
    expect(desc.Data.map((r) => r.Message).slice(0, 1)).toEqual(['probe two']);
    await expect(q({ minLevel: 'loud' })).rejects.toThrow(/Invalid minLevel/);
  });

  it('adds, edits, enables, disables and deletes targets of every kind, with Type per kind', async () => {
    await h.call('POST /notifications/targets/email/add', { body: { Email: 'noc@example.com', MinLevel: 'Error', Modules: ['Hardware'], Name: 'noc-mail', HideForCustomers: true } });
    await h.call('POST /notifications/targets/logserver/add', { body: { ServerUrl: 'https://logs.example.com/ingest', Name: 'logs' } });
    await h.call('POST /notifications/targets/chathook/add', { body: { WebhookUrl: 'https://chat.example.com/hooks/abc', Name: 'chat' } });
    await h.call('POST /notifications/targets/snmp/add', { body: { Ip: '10.1.0.9', CommunityString: 'public-ish', Name: 'trap' } });
    await h.call('POST /notifications/targets/syslog/add', { body: { ConnectionType: 'tls', ServerAddress: 'syslog.example.com', Name: 'sys2' } });
    await h.call('POST /notifications/targets/remote_support/add');
    await expect(h.call('POST /notifications/targets/remote_support/add')).rejects.toThrow(/already exists/);
    await expect(h.call('POST /notifications/targets/snmp/add', { body: { Ip: '10.1.0.9', TrapVersion: 'v3', Name: 'trap3' } })).rejects.toThrow(/V3Username/);
    await expect(h.call('POST /notifications/targets/chathook/add', { body: { WebhookUrl: 'ftp://x', Name: 'bad' } })).rejects.toThrow(/http\(s\) URL/);
    const list = await h.call<{ Data: NotificationTarget[] }>('GET /notifications/targets/list');
    const types = Object.fromEntries(list.Data.map((t) => [t.Name, t.Type]));
    expect(types).toMatchObject({ 'noc-mail': 0, logs: 1, chat: 2, trap: 3, sys2: 4, 'remote-support': 5 });
    expect(list.Data.find((t) => t.Name === 'noc-mail')).toEqual({ Name: 'noc-mail', Type: 0, MinEventLevel: 4, ModulesListenedTo: ['Hardware'], VisibleToCustomers: false, IsEnabled: true });
    await h.call('PUT /notifications/targets/email/edit', { body: { Name: 'noc-mail', NewName: 'noc', MinLevel: 'Warning', ShowForCustomers: true } });
    await expect(h.call('PUT /notifications/targets/logserver/edit', { body: { Name: 'noc' } })).rejects.toThrow(/not logserver/);
    await h.call('PUT /notifications/targets/disable', { body: { Name: ['noc', 'chat'] } });
    let after = (await h.call<{ Data: NotificationTarget[] }>('GET /notifications/targets/list')).Data;
    expect(after.filter((t) => !t.IsEnabled).map((t) => t.Name).sort()).toEqual(expect.arrayContaining(['chat', 'noc']));
    expect(after.find((t) => t.Name === 'noc')).toMatchObject({ MinEventLevel: 3, VisibleToCustomers: true });
    await h.call('PUT /notifications/targets/enable', { body: { Name: ['noc'] } });
    await h.call('DELETE /notifications/targets/delete', { query: { name: ['chat', 'logs'] } });
    after = (await h.call<{ Data: NotificationTarget[] }>('GET /notifications/targets/list')).Data;
    expect(after.map((t) => t.Name)).not.toContain('chat');
    expect(after.find((t) => t.Name === 'noc')?.IsEnabled).toBe(true);
    // A record at or above a target's level on a module it listens to names it as delivered.
    await h.call('POST /notifications/test', { body: { Level: 'Error', Module: 'Hardware', Message: 'deliver me' } });
    const rec = (await h.call<Records>('GET /notifications/query', { query: { descendingOrder: true, top: 1 } })).Data[0];
    expect(rec?.Properties?.['DeliveredTo']?.split(',')).toContain('noc');
  });

  it('edits, shows and resets e-mail settings', async () => {
    await h.call('PUT /notifications/settings/email/edit', { body: { Server: 'mail.example.org', Port: 465, Username: 'u', Password: 'mail-pass-9', SendFromAddress: 'san@example.org', SecureSocketOption: 'SslOnConnect', DisableCertificateValidation: true } });
    const shown = await h.call<EmailSettingsShow>('GET /notifications/settings/email/show');
    expect(shown.EmailSettings).toEqual({ MailServerAddress: 'mail.example.org', MailServerPort: 465, MailServerUsername: 'u', SendingEmailAddress: 'san@example.org', SecureSocketOption: 2, ValidateCertificate: false });
    expect(shown.Notes).toMatch(/A password is set/);
    await expect(h.call('PUT /notifications/settings/email/edit', { body: { DisableCertificateValidation: true, EnableCertificateValidation: true } })).rejects.toThrow(/only one/);
    await h.call('PUT /notifications/settings/email/reset', { body: { Force: true } });
    const reset = await h.call<NotificationSettings>('GET /notifications/settings/show');
    expect(reset.EmailSettings).toMatchObject({ MailServerAddress: '', MailServerPort: 25, ValidateCertificate: true });
    expect(reset.NotificationTargets?.length).toBeGreaterThan(0);
  });
});
