import type { FloatingIp, Node, NotificationSettings, Template, User } from '../catalog/resources.js';
import { memberName, SECURE_SOCKET_OPTIONS, TARGET_TYPE_NAMES } from '../catalog/values.js';
import { LEVEL_NAMES } from '../health/notification-level.js';
import { secretState } from '../reports/config.js';
import { formatBytes } from '../units.js';

/**
 * Configuration of two or more systems side by side: users and roles, notification targets,
 * e-mail settings, CHAP and iSNS, templates and floating IPs, one line per setting with a value per
 * system and the lines that differ marked. Secrets are compared only as set / not set (cached
 * answers are redacted anyway); no value of a secret is ever part of a line.
 */

/** What one system's cache holds: undefined where the read is not cached. */
export interface ConfigSystem {
  siteId: string;
  siteName: string;
  system: string;
  users?: readonly User[] | undefined;
  notifications?: NotificationSettings | null | undefined;
  nodes?: readonly Node[] | undefined;
  templates?: readonly Template[] | undefined;
  floatingIps?: readonly FloatingIp[] | undefined;
}

export type CompareSection = 'Users' | 'Notification targets' | 'E-mail settings' | 'CHAP and iSNS' | 'Templates' | 'Floating IPs';
export const COMPARE_SECTIONS: readonly CompareSection[] = ['Users', 'Notification targets', 'E-mail settings', 'CHAP and iSNS', 'Templates', 'Floating IPs'];

/** The value of a system whose read is not cached, or that does not say. */
export const NOT_REPORTED = 'not reported';
/** The value of an item (a user, a target…) a system's cached list does not hold. */
export const ABSENT = 'absent';

export interface CompareLine {
  key: string;
  section: CompareSection;
  /** The user, target, template or floating IP; empty for a system-wide setting. */
  item: string;
  field: string;
  /** One per system, in the order the systems were given. */
  values: string[];
  /** Two or more systems report different values. */
  differs: boolean;
  /** Some system does not report it: the comparison is incomplete for this line. */
  incomplete: boolean;
}

type Fields = Record<string, string>;

const txt = (v: unknown): string => (typeof v === 'string' ? (v === '' ? '(empty)' : v) : typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'boolean' ? (v ? 'yes' : 'no') : NOT_REPORTED);
const listText = (v: unknown): string => (Array.isArray(v) ? (v.length ? v.map(txt).sort().join(', ') : '(none)') : NOT_REPORTED);

/** The items of a section per system: item name → fields; undefined when the system's read is not cached. */
function sectionItems(section: CompareSection, s: ConfigSystem): Map<string, Fields> | undefined {
  const out = new Map<string, Fields>();
  switch (section) {
    case 'Users':
      if (!s.users) return undefined;
      for (const u of s.users) if (u.Name) out.set(u.Name, { Role: txt(u.Role), 'E-mail': txt(u.Email), 'Two-step sign-in': txt(u.TwoStepAuthenticationEnabled) });
      return out;
    case 'Notification targets':
      if (!s.notifications) return undefined;
      for (const t of s.notifications.NotificationTargets ?? []) {
        if (t.Name) out.set(t.Name, { Type: memberName(TARGET_TYPE_NAMES, t.Type, 'type') ?? NOT_REPORTED, 'Minimum level': memberName(LEVEL_NAMES, t.MinEventLevel, 'Level') ?? NOT_REPORTED, Enabled: txt(t.IsEnabled), 'Visible to customers': txt(t.VisibleToCustomers), Modules: Array.isArray(t.ModulesListenedTo) && t.ModulesListenedTo.length ? listText(t.ModulesListenedTo) : 'all' });
      }
      return out;
    case 'E-mail settings': {
      if (!s.notifications) return undefined;
      const e = s.notifications.EmailSettings;
      if (!e) return out;
      out.set('', { 'Mail server': txt(e.MailServerAddress), Port: txt(e.MailServerPort), 'User name': txt(e.MailServerUsername), Sender: txt(e.SendingEmailAddress), 'Secure socket option': memberName(SECURE_SOCKET_OPTIONS, e.SecureSocketOption, 'option') ?? NOT_REPORTED, 'Validate certificate': txt(e.ValidateCertificate) });
      return out;
    }
    case 'CHAP and iSNS': {
      if (!s.nodes) return undefined;
      // Node names differ between systems: compare the system's setting (every node alike, or mixed).
      const per = (f: (n: Node) => string): string => {
        const values = [...new Set(s.nodes?.map(f) ?? [])];
        return values.length === 0 ? NOT_REPORTED : values.length === 1 ? (values[0] as string) : `mixed: ${s.nodes?.map((n) => `${n.Name ?? '?'} ${f(n)}`).join(', ')}`;
      };
      out.set('', {
        'Target CHAP secret': per((n) => (n.TargetChap === undefined ? NOT_REPORTED : secretState(n.TargetChap.ChapSecret) === 'set' || (n.TargetChap.ChapName ?? '') !== '' ? 'set' : 'not set')),
        'Target CHAP name': per((n) => (n.TargetChap === undefined ? NOT_REPORTED : txt(n.TargetChap.ChapName))),
        'iSNS server': per((n) => (n.Isns === undefined ? NOT_REPORTED : txt(n.Isns.IsnsAddress))),
        'iSNS access control': per((n) => (n.Isns === undefined ? NOT_REPORTED : txt(n.Isns.AccessControl))),
      });
      return out;
    }
    case 'Templates':
      if (!s.templates) return undefined;
      for (const t of s.templates) {
        if (!t.Application) continue;
        const vols = t.Volumes ?? [];
        out.set(t.Application, {
          Description: txt(t.Description),
          Volumes: vols.length ? vols.map((v) => `${v.Volume ?? '?'} ${typeof v.CapacityInBytes === 'number' ? formatBytes(v.CapacityInBytes) : '?'} in ${v.Pool ?? '?'}${v.N !== undefined ? ` ${v.N}+${v.K ?? '?'}` : ''}`).sort().join('; ') : '(none)',
          'Consistency groups': txt((t.ConsistencyGroups ?? []).length),
        });
      }
      return out;
    case 'Floating IPs':
      if (!s.floatingIps) return undefined;
      for (const f of s.floatingIps) if (f.Name) out.set(f.Name, { Address: txt(f.Address), Mask: txt(f.Mask), Gateway: txt(f.Gateway), Interfaces: listText(f.Interfaces) });
      return out;
  }
}

/** Every line of the comparison of `systems` (two or more), sections in order, items by name. */
export function compareConfig(systems: readonly ConfigSystem[]): CompareLine[] {
  const lines: CompareLine[] = [];
  for (const section of COMPARE_SECTIONS) {
    const per = systems.map((s) => sectionItems(section, s));
    const items = [...new Set(per.flatMap((m) => (m ? [...m.keys()] : [])))].sort((a, b) => a.localeCompare(b));
    for (const item of items) {
      const fields = [...new Set(per.flatMap((m) => Object.keys(m?.get(item) ?? {})))];
      for (const field of fields) {
        const values = per.map((m) => (m === undefined ? NOT_REPORTED : m.has(item) ? (m.get(item)?.[field] ?? NOT_REPORTED) : ABSENT));
        const known = new Set(values.filter((v) => v !== NOT_REPORTED));
        lines.push({ key: `${section}\u0000${item}\u0000${field}`, section, item, field, values, differs: known.size > 1, incomplete: values.includes(NOT_REPORTED) });
      }
    }
  }
  return lines;
}

/** The comparison as export cells: section, item, setting, one column per system, differs. */
export function compareTable(systems: readonly ConfigSystem[], lines: readonly CompareLine[]): { columns: string[]; rows: Array<Array<string | boolean>> } {
  return {
    columns: ['Section', 'Item', 'Setting', ...systems.map((s) => `${s.siteName}/${s.system}`), 'Differs'],
    rows: lines.map((l) => [l.section, l.item, l.field, ...l.values, l.differs]),
  };
}
