import { siteIdFromName, type Site } from '../../app/domain/site.js';
import { SITE_LIST_FORMAT, SITE_LIST_VERSION, siteListFileSchema, transferSiteSchema, type ImportPlan, type ImportStep, type TransferSite } from '../../app/domain/site-transfer.js';
import { InputError } from '../../app/errors.js';
import { secretLookingFields } from '../../app/policy/machine-policy.js';
import { sameFingerprint } from '../../app/fingerprint.js';
import { checkSite, checkSiteId, sameBaseUrl, sameKey } from './site-checks.js';
import { issueText } from './site-import.js';
import type { SiteStore } from './site-store.js';

/*
 * Site lists moved between workstations. Export writes what makes a site the same site elsewhere,
 * never a secret. Import is all or nothing: a file with any malformed entry (or any secret-looking
 * field) is refused whole with every bad entry named; a well-formed file is planned entry by entry
 * against the local list (add, unchanged, or a named conflict: skipped, or replaced with
 * `replace`) and applied in one transaction.
 */

/** The site-list file of `sites` (an object to write as JSON). */
export function exportSiteList(sites: readonly Site[], meta: { exportedAt: Date; exportedBy?: string }): Record<string, unknown> {
  return {
    format: SITE_LIST_FORMAT,
    version: SITE_LIST_VERSION,
    exportedAt: meta.exportedAt.toISOString(),
    ...(meta.exportedBy ? { exportedBy: meta.exportedBy } : {}),
    sites: sites.map((s): TransferSite => {
      const tls: TransferSite['tls'] = {};
      if (s.tls.pinSha256 !== undefined) tls.pinSha256 = s.tls.pinSha256;
      if (s.tls.pinnedCertPem !== undefined) tls.pinnedCertPem = s.tls.pinnedCertPem;
      if (s.tls.caBundlePem !== undefined) tls.caBundlePem = s.tls.caBundlePem;
      const out: TransferSite = { id: s.id, name: s.name, baseUrl: s.baseUrl, username: s.username, tags: [...s.tags], allowHttp: s.allowHttp, tls, polling: { ...s.polling } };
      if (s.group !== undefined) out.group = s.group;
      return out;
    }),
  };
}

/**
 * The entries of a site-list file, each checked as `site add` checks a site (against the entries
 * before it).
 * @throws InputError naming the file and every bad entry (or the secret-looking fields): nothing is imported.
 */
export function readSiteList(file: string, text: string): Site[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${file} is not JSON (${err instanceof Error ? err.message : String(err)}); nothing was imported`);
  }
  const secrets = secretLookingFields(data);
  if (secrets.length > 0) {
    throw new InputError(`${file} is refused: ${secrets.length === 1 ? 'a field looks' : `${secrets.length} fields look`} like a secret, and a site list never carries one (passwords stay in each workstation's keychain); nothing was imported${secrets.map((f) => `\n  - ${f}`).join('')}`);
  }
  const version = typeof data === 'object' && data !== null && 'version' in data ? data.version : undefined;
  if (typeof version === 'number' && version > SITE_LIST_VERSION) throw new InputError(`${file} has format version ${version}, written by a newer Fleetdeck; update Fleetdeck`);
  const parsed = siteListFileSchema.safeParse(data);
  if (!parsed.success) throw new InputError(`${file} is not a Fleetdeck site list (${issueText(parsed.error.issues[0])}); nothing was imported`);
  const sites: Site[] = [];
  const bad: string[] = [];
  parsed.data.sites.forEach((entry, i) => {
    const label = entryLabel(entry, i);
    const e = transferSiteSchema.safeParse(entry);
    if (!e.success) {
      bad.push(`${label}: ${e.error.issues.map((x) => issueText(x)).join('; ')}`);
      return;
    }
    try {
      checkSiteId(e.data.id);
      const site: Site = { ...e.data, tags: e.data.tags, tls: e.data.tls, polling: e.data.polling, createdAt: '', updatedAt: '' };
      if (e.data.group === undefined) delete site.group;
      sites.push(checkSite(site, sites));
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      bad.push(`${label}: ${err.message}${err.code === 'conflict' ? ' earlier in the file' : ''}`);
    }
  });
  if (bad.length > 0) throw new InputError(`${file} is refused: ${bad.length} of its ${parsed.data.sites.length} sites are malformed; nothing was imported${bad.map((b) => `\n  - ${b}`).join('')}`);
  return sites;
}

function entryLabel(entry: unknown, i: number): string {
  const name = typeof entry === 'object' && entry !== null && 'name' in entry && typeof entry.name === 'string' ? entry.name : undefined;
  return name ? `site ${i + 1} ("${name.replace(/[\p{Cc}\p{Cf}]/gu, '?').slice(0, 64)}")` : `site ${i + 1}`;
}

/** What of a site's trust differs between two copies of it. */
function trustDiffers(a: Site, b: Site): boolean {
  const pins = a.tls.pinSha256 === undefined || b.tls.pinSha256 === undefined ? a.tls.pinSha256 !== b.tls.pinSha256 : !sameFingerprint(a.tls.pinSha256, b.tls.pinSha256);
  return pins || (a.tls.caBundlePem ?? '') !== (b.tls.caBundlePem ?? '');
}

/** The plain settings that differ between a local site and an entry. */
function settingsDiffer(local: Site, e: Site): string[] {
  const out: string[] = [];
  if (local.username !== e.username) out.push('user name');
  if ((local.group ?? '') !== (e.group ?? '')) out.push('group');
  if (JSON.stringify([...local.tags].sort()) !== JSON.stringify([...e.tags].sort())) out.push('tags');
  if (local.allowHttp !== e.allowHttp) out.push('plain http');
  const { paused: _a, ...lp } = local.polling;
  const { paused: _b, ...ep } = e.polling;
  if (JSON.stringify(lp) !== JSON.stringify(ep)) out.push('polling');
  return out;
}

/**
 * The import of `entries` into `current`: each entry's step, the list after it, and the sites whose
 * endpoint or trust a replacement changed (their passwords and sessions must be forgotten).
 */
export function planImport(entries: readonly Site[], current: readonly Site[], o: { replace: boolean; isManaged: (id: string) => boolean; now: string; minIntervalSeconds?: number | undefined }): { steps: ImportStep[]; sites: Site[]; forget: string[] } {
  let sites = [...current];
  const steps: ImportStep[] = [];
  const forget: string[] = [];
  for (const e of entries) {
    const byName = current.find((s) => sameKey(s.name, e.name));
    const byUrl = current.find((s) => s !== byName && sameBaseUrl(s.baseUrl, e.baseUrl));
    const conflicts: string[] = [];
    if (byName && !sameBaseUrl(byName.baseUrl, e.baseUrl)) conflicts.push(`same name, different URL (here ${byName.baseUrl}, in the file ${e.baseUrl})`);
    if (byUrl) conflicts.push(`same URL, different name (here "${byUrl.name}")`);
    const same = byName && sameBaseUrl(byName.baseUrl, e.baseUrl) ? byName : undefined;
    if (same && trustDiffers(same, e)) conflicts.push(`pin differs (here ${same.tls.pinSha256 ?? (same.tls.caBundlePem ? 'a CA bundle' : 'nothing pinned')}, in the file ${e.tls.pinSha256 ?? (e.tls.caBundlePem ? 'a CA bundle' : 'nothing pinned')})`);
    if (same) {
      const differ = settingsDiffer(same, e);
      if (differ.length > 0) conflicts.push(`settings differ: ${differ.join(', ')}`);
    }
    const local = byName ?? byUrl;
    const min = o.minIntervalSeconds;
    if (min !== undefined && e.polling.intervalSeconds > 0 && e.polling.intervalSeconds < min) {
      steps.push({ action: 'skip', name: e.name, ...(local ? { local: local.name } : {}), conflicts, note: `its poll interval (${e.polling.intervalSeconds} s) is below the minimum managed by your organisation (${min} s)` });
      continue;
    }
    if (!local) {
      // A new site: its id, unless taken here (then derived from its name, as `site add` does).
      let id = e.id;
      const taken = (x: string): boolean => sites.some((s) => sameKey(s.id, x) || sameKey(s.name, x));
      if (taken(id)) {
        const base = siteIdFromName(e.name);
        id = base;
        for (let n = 2; taken(id); n++) id = `${base}-${n}`;
      }
      const site: Site = { ...e, id, createdAt: o.now, updatedAt: o.now };
      try {
        sites.push(checkSite(site, sites));
        steps.push({ action: 'add', name: e.name, conflicts: [] });
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        steps.push({ action: 'skip', name: e.name, conflicts: [err.message] });
      }
      continue;
    }
    if (conflicts.length === 0) {
      steps.push({ action: 'unchanged', name: e.name, local: local.name, conflicts });
      continue;
    }
    const step: ImportStep = { action: 'skip', name: e.name, local: local.name, conflicts };
    if (byName && byUrl) step.note = `it meets two sites here ("${byName.name}" and "${byUrl.name}"); resolve by hand`;
    else if (o.isManaged(local.id)) step.note = `"${local.name}" is managed by your organisation`;
    else if (o.replace) {
      const moved = !sameBaseUrl(local.baseUrl, e.baseUrl) || trustDiffers(local, e);
      const replaced: Site = { ...e, id: local.id, createdAt: local.createdAt, updatedAt: o.now, polling: { ...e.polling } };
      if (!moved && local.auth) replaced.auth = local.auth;
      const others = sites.filter((s) => s.id !== local.id);
      try {
        const checked = checkSite(replaced, others);
        sites = sites.map((s) => (s.id === local.id ? checked : s));
        step.action = 'replace';
        if (moved) {
          forget.push(local.id);
          step.note = 'its password and sessions here are forgotten (they were for the old endpoint or certificate)';
        }
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        step.note = err.message;
      }
    }
    steps.push(step);
  }
  return { steps, sites, forget };
}

/**
 * Imports a site-list file into the store: planned against the list as it is inside the
 * transaction, applied whole (or, with `dryRun`, only planned). Credentials of replaced sites whose
 * endpoint or trust changed are forgotten by `forget` after the commit.
 * @throws InputError for a malformed file (nothing imported); ManagedError on a read-only workstation.
 */
export async function importSiteList(store: SiteStore, file: string, text: string, o: { replace: boolean; dryRun: boolean; now: Date; forget: (siteId: string) => Promise<void> }): Promise<ImportPlan> {
  const entries = readSiteList(file, text);
  const plan = (current: readonly Site[]): ReturnType<typeof planImport> => planImport(entries, current, { replace: o.replace, isManaged: (id) => store.policy.isManaged(id), now: o.now.toISOString(), minIntervalSeconds: store.policy.minPollIntervalSeconds });
  if (o.dryRun) return { file, steps: plan(store.list()).steps, applied: false };
  const done = await store.replaceList('importing sites', (current) => {
    const p = plan(current);
    return { sites: p.sites, result: p };
  });
  for (const id of done.forget) await o.forget(id);
  return { file, steps: done.steps, applied: done.steps.some((s) => s.action === 'add' || s.action === 'replace') };
}
