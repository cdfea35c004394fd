import { LOCAL_TIME_OFFSET_MS } from '../answer-dialects.js';
import type { EmailSettings, EmailSettingsShow, NotificationRecord, NotificationSettings } from '../../app/catalog/resources.js';
import { SECURE_SOCKET_OPTIONS } from '../../app/catalog/values.js';
import type { Args } from '../args.js';
import { fail } from '../errors.js';
import { managementNode, requireNode, sameName } from '../state/lookup.js';
import type { EmailState, SystemState, TargetKind, TargetState } from '../state/model.js';
import { LEVEL, MODULES, parseLevel } from '../state/notifications.js';
import { targetView } from '../state/views.js';
import { isIpv4, requireEmail, requireIpv4, requireName, requirePort, requireUrl } from './checks.js';
import type { Ctx, Handler, HandlerMap } from './context.js';

const DEFAULT_TOP = 1000;
const MAX_TOP = 10_000;
/** Records per answer in the `notification-pages` dialect, whatever `top` asks. */
export const NOTIFICATION_PAGE_CAP = 25;

function level(field: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const n = parseLevel(text);
  if (n === undefined) fail(`Invalid ${field} '${text}': expected 0-5 or Verbose, Debug, Information, Warning, Error, Critical.`);
  return n;
}

function modules(list: readonly string[] | undefined): string[] | undefined {
  return list?.map((m) => MODULES.find((x) => sameName(x, m)) ?? fail(`Unknown module '${m}': expected one of ${MODULES.join(', ')}.`));
}

function emailView(e: EmailState): EmailSettings {
  return {
    MailServerAddress: e.server,
    MailServerPort: e.port,
    MailServerUsername: e.username,
    SendingEmailAddress: e.from,
    SecureSocketOption: e.secureSocketOption,
    ValidateCertificate: e.validateCertificate,
  };
}

function defaultEmail(): EmailState {
  return { server: '', port: 25, username: '', password: undefined, from: '', secureSocketOption: 1, validateCertificate: true };
}

function findTarget(system: SystemState, name: string | undefined, kind?: TargetKind): TargetState {
  if (!name) fail('Name is required.');
  const t = system.targets.find((x) => sameName(x.name, name));
  if (!t) fail(`Notification target '${name}' does not exist.`);
  if (kind && t.kind !== kind) fail(`Notification target '${t.name}' is a ${t.kind} target, not ${kind}.`);
  return t;
}

function batch(b: Args, t: TargetState): void {
  const limit = b.int('BatchPostingLimit');
  const period = b.int('BatchPostingPeriod');
  if (limit !== undefined && (limit < 1 || limit > 10_000)) fail('BatchPostingLimit must be between 1 and 10000.');
  if (period !== undefined && (period < 1 || period > 86_400)) fail('BatchPostingPeriod must be between 1 and 86400 seconds.');
  if (limit !== undefined) t.batchLimit = limit;
  if (period !== undefined) t.batchPeriod = period;
}

function kindFields(kind: TargetKind, b: Args, t: TargetState, creating: boolean): void {
  const s = t.settings;
  switch (kind) {
    case 'email': {
      const address = b.str(creating ? 'Email' : 'Address');
      if (creating || address !== undefined) s['Email'] = requireEmail(creating ? 'Email' : 'Address', address);
      break;
    }
    case 'logserver':
      if (creating || b.has('ServerUrl')) s['ServerUrl'] = requireUrl('ServerUrl', b.str('ServerUrl'));
      break;
    case 'chathook':
      if (creating || b.has('WebhookUrl')) s['WebhookUrl'] = requireUrl('WebhookUrl', b.str('WebhookUrl'));
      break;
    case 'snmp': {
      const addressField = creating ? 'Ip' : 'ManagerAddress';
      if (creating || b.has(addressField)) s['ManagerAddress'] = requireIpv4(addressField, b.str(addressField)) as string;
      s['ManagerPort'] = requirePort('ManagerPort', b.int('ManagerPort'), Number(s['ManagerPort'] ?? 162));
      const version = (b.str('TrapVersion') ?? String(s['TrapVersion'] ?? 'v2c')).toLowerCase();
      if (!['v1', 'v2c', 'v3'].includes(version)) fail(`Invalid TrapVersion '${version}': expected v1, v2c or v3.`);
      s['TrapVersion'] = version;
      for (const f of ['V3Context', 'V3Username'] as const) if (b.has(f)) s[f] = b.str(f) ?? '';
      for (const f of ['CommunityString', 'V3AuthPhrase', 'V3PrivacyPhrase'] as const) if (b.has(f)) t.secrets[f] = b.str(f) ?? '';
      if (version === 'v3') {
        if (!s['V3Username']) fail('TrapVersion v3 needs V3Username.');
        if ((t.secrets['V3AuthPhrase'] ?? '').length < 8) fail('TrapVersion v3 needs V3AuthPhrase of at least 8 characters.');
        const privacy = t.secrets['V3PrivacyPhrase'];
        if (privacy !== undefined && privacy !== '' && privacy.length < 8) fail('V3PrivacyPhrase must be at least 8 characters.');
      } else if (!t.secrets['CommunityString']) {
        fail(`TrapVersion ${version} needs CommunityString.`);
      }
      break;
    }
    case 'syslog': {
      const type = b.str('ConnectionType') ?? String(s['ConnectionType'] ?? 'Udp');
      const conn = ['Udp', 'Tcp', 'Tls'].find((x) => sameName(x, type));
      if (!conn) fail(`Invalid ConnectionType '${type}': expected Udp, Tcp or Tls.`);
      s['ConnectionType'] = conn;
      const address = b.str('ServerAddress') ?? (s['ServerAddress'] as string | undefined);
      if (!address) fail('ServerAddress is required.');
      if (!isIpv4(address) && !/^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$/.test(address)) fail(`Invalid ServerAddress '${address}'.`);
      s['ServerAddress'] = address;
      s['ServerPort'] = requirePort('ServerPort', b.int('ServerPort'), Number(s['ServerPort'] ?? (conn === 'Tls' ? 6514 : 514)));
      const ssl = b.str('SslProtocol') ?? String(s['SslProtocol'] ?? '');
      if (ssl && conn !== 'Tls') fail('SslProtocol applies only to ConnectionType Tls.');
      if (ssl && !['Tls12', 'Tls13'].some((x) => sameName(x, ssl))) fail(`Invalid SslProtocol '${ssl}': expected Tls12 or Tls13.`);
      s['SslProtocol'] = ssl;
      break;
    }
    case 'remote_support':
      break;
  }
}

function defaultName(kind: TargetKind, b: Args): string {
  const base = kind === 'email' ? `email-${(b.str('Email') ?? '').split('@')[0]}` : kind === 'snmp' ? `snmp-${b.str('Ip') ?? ''}` : kind;
  return base.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^-+/, '') || kind;
}

function addTarget(kind: TargetKind): Handler {
  return (ctx) => {
    const b = ctx.body;
    const name = requireName('Name', b.str('Name') ?? defaultName(kind, b));
    if (ctx.system.targets.some((t) => sameName(t.name, name))) fail(`Notification target '${name}' already exists.`);
    const t: TargetState = {
      name,
      kind,
      minLevel: level('MinLevel', b.str('MinLevel'), LEVEL.warning),
      modules: modules(b.strs('Modules')) ?? [],
      visible: !b.flag('HideForCustomers'),
      enabled: true,
      batchLimit: 50,
      batchPeriod: 60,
      settings: {},
      secrets: {},
    };
    batch(b, t);
    kindFields(kind, b, t, true);
    ctx.system.targets.push(t);
    return `Notification target '${name}' added.`;
  };
}

function editTarget(kind: TargetKind): Handler {
  return (ctx) => {
    const b = ctx.body;
    const current = findTarget(ctx.system, b.str('Name'), kind);
    const next: TargetState = { ...current, settings: { ...current.settings }, secrets: { ...current.secrets }, modules: [...current.modules] };
    const newName = b.str('NewName');
    if (newName !== undefined && !sameName(newName, current.name)) {
      requireName('NewName', newName);
      if (ctx.system.targets.some((t) => sameName(t.name, newName))) fail(`Notification target '${newName}' already exists.`);
      next.name = newName;
    }
    if (b.flag('Enable') && b.flag('Disable')) fail('Choose only one of Enable and Disable.');
    if (b.flag('HideForCustomers') && b.flag('ShowForCustomers')) fail('Choose only one of HideForCustomers and ShowForCustomers.');
    if (b.has('MinLevel')) next.minLevel = level('MinLevel', b.str('MinLevel'), next.minLevel);
    next.modules = modules(b.strs('Modules')) ?? next.modules;
    if (b.flag('Enable')) next.enabled = true;
    if (b.flag('Disable')) next.enabled = false;
    if (b.flag('HideForCustomers')) next.visible = false;
    if (b.flag('ShowForCustomers')) next.visible = true;
    batch(b, next);
    kindFields(kind, b, next, false);
    Object.assign(current, next);
    return `Notification target '${current.name}' updated.`;
  };
}

function switchTargets(enable: boolean): Handler {
  return (ctx) => {
    const names = ctx.body.strs('Name') ?? [];
    if (names.length === 0) fail('Name is required: list the targets.');
    const targets = names.map((n) => findTarget(ctx.system, n));
    for (const t of targets) t.enabled = enable;
    return `${enable ? 'Enabled' : 'Disabled'} notification target(s) ${targets.map((t) => `'${t.name}'`).join(', ')}.`;
  };
}

function query(ctx: Ctx): { records: NotificationRecord[]; matching: number } {
  const q = ctx.query;
  const nodes = q.strs('nodes')?.map((n) => n.toLowerCase());
  const min = level('minLevel', q.str('minLevel'), 0);
  const levels = q.strs('levels')?.map((l) => level('levels', l, 0));
  const mods = q.strs('modules')?.map((m) => m.toLowerCase());
  const local = ctx.fleet.dialects.has('local-time') ? LOCAL_TIME_OFFSET_MS : 0;
  const start = q.date('startTimestamp', local);
  const end = q.date('endTimestamp', local);
  if (start !== undefined && end !== undefined && start > end) fail('startTimestamp must not be later than endTimestamp.');
  const search = q.str('search')?.toLowerCase();
  const top = q.int('top') ?? DEFAULT_TOP;
  if (top < 1 || top > MAX_TOP) fail(`top must be between 1 and ${MAX_TOP}.`);
  const matches = ctx.system.notifications.filter((r) => {
    const lvl = r.Level ?? 0;
    if (lvl < min) return false;
    if (levels && levels.length > 0 && !levels.includes(lvl)) return false;
    if (nodes && nodes.length > 0 && !nodes.includes((r.Node ?? '').toLowerCase())) return false;
    if (mods && mods.length > 0 && !mods.includes((r.Module ?? '').toLowerCase())) return false;
    const t = Date.parse(r.Timestamp ?? '');
    if (start !== undefined && t < start) return false;
    if (end !== undefined && t > end) return false;
    if (search) {
      // The document scopes search to customer, system, node and module names.
      const hay = [r.Properties?.['Customer'], r.Properties?.['System'], r.Node, r.Module].map((x) => (x ?? '').toLowerCase());
      if (!hay.some((h) => h.includes(search))) return false;
    }
    return true;
  });
  const ordered = q.flag('descendingOrder') ? [...matches].reverse() : matches;
  return { records: ordered.slice(0, top), matching: matches.length };
}

export const notificationHandlers: HandlerMap = {
  'GET /notifications/query': (ctx) => {
    const { records, matching } = query(ctx);
    if (!ctx.fleet.dialects.has('notification-pages') || records.length <= NOTIFICATION_PAGE_CAP) return { Data: records };
    return { Data: records.slice(0, NOTIFICATION_PAGE_CAP), TotalCount: matching };
  },

  'POST /notifications/test': (ctx) => {
    const b = ctx.body;
    const node = b.str('Node') ? requireNode(ctx.system, b.str('Node')) : managementNode(ctx.system);
    const lvl = level('Level', b.str('Level'), LEVEL.info);
    const module = b.str('Module') || 'Notifications';
    if (module.length > 64) fail('Module must be at most 64 characters.');
    const message = b.str('Message') || 'Test notification';
    ctx.notify({ level: lvl, module, message, node: node.name, properties: { Test: 'true' } });
    ctx.audited = true;
    const rec = ctx.system.notifications[ctx.system.notifications.length - 1];
    return `Test notification ${rec?.Id ?? 0} created${rec?.Properties?.['DeliveredTo'] ? ` and sent to ${rec.Properties['DeliveredTo']}` : ''}.`;
  },

  'GET /notifications/settings/show': (ctx) => {
    const out: NotificationSettings = { EmailSettings: emailView(ctx.system.email), NotificationTargets: ctx.system.targets.map(targetView) };
    return out;
  },

  'DELETE /notifications/targets/delete': (ctx) => {
    const names = ctx.query.strs('name') ?? [];
    if (names.length === 0) fail('name is required: list the targets to delete.');
    const doomed = names.map((n) => findTarget(ctx.system, n));
    ctx.system.targets = ctx.system.targets.filter((t) => !doomed.includes(t));
    return `Deleted notification target(s) ${doomed.map((t) => `'${t.name}'`).join(', ')}.`;
  },

  'PUT /notifications/targets/disable': switchTargets(false),
  'PUT /notifications/targets/enable': switchTargets(true),

  'GET /notifications/targets/list': (ctx) => {
    const name = ctx.query.str('name');
    return { Data: ctx.system.targets.filter((t) => !name || sameName(t.name, name)).map(targetView) };
  },

  'PUT /notifications/settings/email/edit': (ctx) => {
    const b = ctx.body;
    const e: EmailState = { ...ctx.system.email };
    const keys = ['Server', 'Port', 'Username', 'Password', 'SendFromAddress', 'RemoveUsernameAndPassword', 'RemoveSendFromAddress', 'SecureSocketOption', 'DisableCertificateValidation', 'EnableCertificateValidation'];
    if (!keys.some((k) => b.has(k))) fail('Nothing to change.');
    if (b.flag('DisableCertificateValidation') && b.flag('EnableCertificateValidation')) fail('Choose only one of DisableCertificateValidation and EnableCertificateValidation.');
    if (b.has('Server')) {
      const server = b.str('Server') ?? '';
      if (!isIpv4(server) && !/^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$/.test(server)) fail(`Invalid Server '${server}'.`);
      e.server = server;
    }
    if (b.has('Port')) e.port = requirePort('Port', b.int('Port'), 25);
    if (b.has('Username')) e.username = b.str('Username') ?? '';
    if (b.has('Password')) e.password = b.str('Password');
    if (b.has('SendFromAddress')) e.from = requireEmail('SendFromAddress', b.str('SendFromAddress'));
    if (b.flag('RemoveUsernameAndPassword')) {
      e.username = '';
      e.password = undefined;
    }
    if (b.flag('RemoveSendFromAddress')) e.from = '';
    if (b.has('SecureSocketOption')) {
      const text = b.str('SecureSocketOption') ?? '';
      const idx = /^[0-4]$/.test(text.trim()) ? Number(text.trim()) : SECURE_SOCKET_OPTIONS.findIndex((o) => sameName(o, text));
      if (idx < 0) fail(`Invalid SecureSocketOption '${text}': expected ${SECURE_SOCKET_OPTIONS.join(', ')} or 0-4.`);
      e.secureSocketOption = idx;
    }
    if (b.flag('DisableCertificateValidation')) e.validateCertificate = false;
    if (b.flag('EnableCertificateValidation')) e.validateCertificate = true;
    ctx.system.email = e;
    return 'E-mail settings updated.';
  },

  'PUT /notifications/settings/email/reset': (ctx) => {
    ctx.system.email = defaultEmail();
    return 'E-mail settings reset to defaults.';
  },

  'GET /notifications/settings/email/show': (ctx) => {
    const e = ctx.system.email;
    const out: EmailSettingsShow = {
      EmailSettings: emailView(e),
      Notes: `${e.password !== undefined && e.password !== '' ? 'A password is set.' : 'No password is set.'} Secure socket option: ${SECURE_SOCKET_OPTIONS[e.secureSocketOption] ?? e.secureSocketOption}.`,
    };
    return out;
  },

  'POST /notifications/targets/email/add': addTarget('email'),
  'PUT /notifications/targets/email/edit': editTarget('email'),
  'POST /notifications/targets/logserver/add': addTarget('logserver'),
  'PUT /notifications/targets/logserver/edit': editTarget('logserver'),
  'POST /notifications/targets/chathook/add': addTarget('chathook'),
  'PUT /notifications/targets/chathook/edit': editTarget('chathook'),
  'POST /notifications/targets/snmp/add': addTarget('snmp'),
  'PUT /notifications/targets/snmp/edit': editTarget('snmp'),
  'POST /notifications/targets/syslog/add': addTarget('syslog'),
  'PUT /notifications/targets/syslog/edit': editTarget('syslog'),

  'POST /notifications/targets/remote_support/add': (ctx) => {
    if (ctx.system.targets.some((t) => t.kind === 'remote_support')) fail('The remote support target already exists.');
    ctx.system.targets.push({
      name: 'remote-support', kind: 'remote_support', minLevel: LEVEL.warning, modules: [], visible: false, enabled: true, batchLimit: 100, batchPeriod: 300, settings: {}, secrets: {},
    });
    return "Notification target 'remote-support' added.";
  },
};
