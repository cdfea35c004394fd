import { pollingText } from '../../../app/domain/polling.js';
import { parseArgs } from 'node:util';
import { formatFingerprint, requireFingerprint, sameFingerprint } from '../../../app/fingerprint.js';
import { CertificateError, pinnedValidity, probeCertificate, type PinnedValidity } from '../../client/index.js';
import { siteNotices } from '../../../app/domain/site-notices.js';
import { shellWord, terminalField } from '../../../app/safe-text.js';
import { urlProtocol } from '../../net.js';
import { sameBaseUrl } from '../../store/site-store.js';
import { DATA_DIR, withRuntime } from '../context.js';
import { readLocalFile } from './call.js';
import { writeFile } from 'node:fs/promises';
import { exportSiteList, importSiteList } from '../../store/site-transfer.js';
import { sitePrefix } from '../../secrets/accounts.js';
import { osUser } from '../../runtime.js';
import type { ImportStep } from '../../../app/domain/site-transfer.js';
import { CliError, EXIT, firstLine, printJson, printRow, type CliIo } from '../io.js';

/** `fleetdeck site add|list|edit|remove|trust|pause|resume|export|import …` */
export async function siteCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const [verb, ...rest] = args;
  switch (verb) {
    case 'add':
      return siteAdd(io, rest);
    case 'list':
    case 'ls':
      return siteList(io, rest);
    case 'edit':
      return siteEdit(io, rest);
    case 'remove':
    case 'rm':
      return siteSimple(io, rest, async (rt, name) => {
        await rt.fleet.forgetSite(name);
        io.stdout(`removed site ${name} and every secret and cached answer of it\n`);
      });
    case 'pause':
    case 'resume':
      return siteSimple(io, rest, async (rt, name) => {
        await rt.fleet.setPaused(name, verb === 'pause');
        io.stdout(`${verb === 'pause' ? 'paused' : 'resumed'} site ${name}\n`);
      });
    case 'trust':
      return siteTrust(io, rest);
    case 'export':
      return siteExport(io, rest);
    case 'import':
      return siteImport(io, rest);
    default:
      throw new CliError('usage: fleetdeck site add|list|edit|remove|trust|pause|resume|export|import …', EXIT.usage);
  }
}

async function siteAdd(io: CliIo, args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      ...DATA_DIR,
      url: { type: 'string' },
      user: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      trust: { type: 'string' },
      ca: { type: 'string' },
      group: { type: 'string' },
      tag: { type: 'string', multiple: true, default: [] },
      'allow-http': { type: 'boolean', default: false },
    },
  });
  const name = positionals[0];
  if (positionals.length !== 1 || !name || !values.url || !values.user) {
    throw new CliError('usage: fleetdeck site add NAME --url URL --user USER [--password-stdin] [--trust SHA256] [--ca FILE]', EXIT.usage);
  }
  const trustSha256 = values.trust ? parseFingerprint(values.trust) : undefined;
  const password = values['password-stdin'] ? firstLine(await io.readStdin()) : undefined;
  const caBundlePem = values.ca ? await readLocalFile(values.ca, '--ca') : undefined;
  return withRuntime(io, values['data-dir'], async (rt) => {
    try {
      const site = await rt.fleet.addSite({
        name,
        baseUrl: values.url as string,
        username: values.user as string,
        password,
        group: values.group,
        tags: values.tag,
        allowHttp: values['allow-http'],
        trustSha256,
        caBundlePem,
      });
      io.stdout(`added site ${terminalField(site.name)} (${site.baseUrl})${site.tls.pinSha256 ? `, certificate pinned ${formatFingerprint(site.tls.pinSha256)}` : ''}\n`);
      if (password === undefined) io.stdout(`no password stored: run "fleetdeck login ${shellWord(site.name, process.platform === 'win32')} --password-stdin"\n`);
      return EXIT.ok;
    } catch (err) {
      if (err instanceof CertificateError && err.presentedSha256 && !trustSha256) {
        throw new CliError(
          `${values.url} presents a certificate with SHA-256 fingerprint\n  ${formatFingerprint(err.presentedSha256)}\n` +
            `Compare it with the one shown on the system itself, then confirm with --trust ${err.presentedSha256}`,
          EXIT.certificate,
        );
      }
      throw err;
    }
  });
}

async function siteList(io: CliIo, args: readonly string[]): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { ...DATA_DIR, json: { type: 'boolean', default: false } } });
  return withRuntime(io, values['data-dir'], async (rt) => {
    const sites = rt.sites.list();
    // Told (on stderr, so --json stays parseable) until the window's notice is dismissed.
    const imported = rt.sites.importNotice();
    if (imported) io.stderr(`fleetdeck: ${terminalField(imported.message)}\n`);
    const validity = (s: (typeof sites)[number]): PinnedValidity | undefined => (s.tls.pinSha256 ? pinnedValidity(s.tls.pinnedCertPem) : undefined);
    if (values.json) {
      printJson(
        io,
        sites.map((s) => {
          const v = validity(s);
          return { ...s, tls: { pinSha256: s.tls.pinSha256, hasCaBundle: Boolean(s.tls.caBundlePem), validTo: v?.validTo, expiredSince: v?.expiredSince } };
        }),
      );
      return EXIT.ok;
    }
    if (!sites.length) io.stdout('no sites: add one with "fleetdeck site add NAME --url URL --user USER --password-stdin"\n');
    for (const s of sites) {
      const flags = [pollingText(s.polling), s.group ? `group ${s.group}` : '', s.tags.length ? `tags ${s.tags.join(',')}` : ''].filter(Boolean).join(', ');
      // a site list may have been edited by hand: its text is printed as fields, like a system's.
      const fields = [s.name, s.baseUrl, s.username, ...(s.tls.pinSha256 ? [`pinned ${s.tls.pinSha256.slice(0, 16)}…`] : []), ...(flags ? [`(${flags})`] : [])];
      printRow(io, fields);
      for (const n of siteNotices({ tls: { expiredSince: validity(s)?.expiredSince }, auth: s.auth })) printRow(io, [`${n.tone}: ${n.text}`], '  ');
    }
    return EXIT.ok;
  }, { secrets: false });
}

async function siteEdit(io: CliIo, args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      ...DATA_DIR,
      name: { type: 'string' },
      url: { type: 'string' },
      user: { type: 'string' },
      group: { type: 'string' },
      tag: { type: 'string', multiple: true },
      'max-in-flight': { type: 'string' },
      interval: { type: 'string' },
      'smart-max-age': { type: 'string' },
      'allow-http': { type: 'boolean' },
    },
  });
  const ref = positionals[0];
  if (positionals.length !== 1 || !ref) throw new CliError('usage: fleetdeck site edit NAME [--name N] [--url URL] [--user U] [--group G] [--tag T]... [--max-in-flight N] [--interval SECONDS] [--smart-max-age HOURS]', EXIT.usage);
  const int = (v: string | undefined, what: string, min: number): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new CliError(`${what} takes a whole number ≥ ${min}`, EXIT.usage);
    return n;
  };
  const maxInFlight = int(values['max-in-flight'], '--max-in-flight', 1);
  const intervalSeconds = int(values.interval, '--interval', 0);
  const smartMaxAgeHours = int(values['smart-max-age'], '--smart-max-age', 1);
  return withRuntime(io, values['data-dir'], async (rt) => {
    const site = rt.sites.get(ref);
    if (!site) throw new CliError(`no site named "${ref}"`, EXIT.usage);
    const updated = await rt.fleet.editSite(site.id, {
      ...(values.name ? { name: values.name } : {}),
      ...(values.url ? { baseUrl: values.url } : {}),
      ...(values.user ? { username: values.user } : {}),
      ...(values.group !== undefined ? { group: values.group } : {}),
      ...(values.tag ? { tags: values.tag } : {}),
      ...(values['allow-http'] !== undefined ? { allowHttp: values['allow-http'] } : {}),
      polling: { ...site.polling, ...(maxInFlight ? { maxInFlight } : {}), ...(intervalSeconds !== undefined ? { intervalSeconds } : {}), ...(smartMaxAgeHours !== undefined ? { smartMaxAgeHours } : {}) },
    });
    io.stdout(`updated site ${terminalField(updated.name)}\n`);
    if (!sameBaseUrl(site.baseUrl, updated.baseUrl)) {
      // Fleet.editSite forgot them: they belonged to the old endpoint.
      const trust = urlProtocol(updated.baseUrl) === 'https:' && !updated.tls.caBundlePem ? `"fleetdeck site trust ${shellWord(updated.name, process.platform === 'win32')}", then ` : '';
      io.stdout(`it moved to ${updated.baseUrl}: its password, sessions and pinned certificate were forgotten; run ${trust}"fleetdeck login ${shellWord(updated.name, process.platform === 'win32')} --password-stdin"\n`);
    }
    return EXIT.ok;
  });
}

async function siteTrust(io: CliIo, args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], allowPositionals: true, options: { ...DATA_DIR, trust: { type: 'string' } } });
  const ref = positionals[0];
  if (positionals.length !== 1 || !ref) throw new CliError('usage: fleetdeck site trust NAME [--trust SHA256]', EXIT.usage);
  const expected = values.trust ? parseFingerprint(values.trust) : undefined;
  return withRuntime(io, values['data-dir'], async (rt) => {
    const site = rt.sites.get(ref);
    if (!site) throw new CliError(`no site named "${ref}"`, EXIT.usage);
    if (!expected) {
      const presented = await probeCertificate(site.baseUrl);
      const same = sameFingerprint(presented.sha256, site.tls.pinSha256);
      io.stdout(
        `${site.name} presents ${formatFingerprint(presented.sha256)}\n` +
          (site.tls.pinSha256 ? `pinned       ${formatFingerprint(site.tls.pinSha256)}${same ? ' (unchanged)' : ' (CHANGED)'}\n` : 'nothing pinned yet\n'),
      );
      if (same) return EXIT.ok;
      throw new CliError(`compare the new fingerprint with the one shown on the system, then confirm with --trust ${presented.sha256}`, EXIT.certificate);
    }
    const { sha256 } = await rt.fleet.trust(site.id, expected);
    io.stdout(`pinned ${formatFingerprint(sha256)} for ${site.name}\n`);
    return EXIT.ok;
  });
}

async function siteSimple(io: CliIo, args: readonly string[], task: (rt: Parameters<Parameters<typeof withRuntime>[2]>[0], name: string) => Promise<void>): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], allowPositionals: true, options: { ...DATA_DIR } });
  const ref = positionals[0];
  if (positionals.length !== 1 || !ref) throw new CliError('name one site', EXIT.usage);
  return withRuntime(io, values['data-dir'], async (rt) => {
    if (!rt.sites.get(ref)) throw new CliError(`no site named "${ref}"`, EXIT.usage);
    await task(rt, ref);
    return EXIT.ok;
  });
}

function parseFingerprint(text: string): string {
  try {
    return requireFingerprint(text);
  } catch (err) {
    throw new CliError(`--trust: ${(err as Error).message}`, EXIT.usage);
  }
}

/** `fleetdeck site export FILE [--site NAME]... [--force]`: the site list without a secret ("-": standard output). */
async function siteExport(io: CliIo, args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { ...DATA_DIR, site: { type: 'string', multiple: true }, force: { type: 'boolean', default: false } },
  });
  const file = positionals[0];
  if (positionals.length !== 1 || !file) throw new CliError('usage: fleetdeck site export FILE [--site NAME]... [--force]   (FILE "-": standard output)', EXIT.usage);
  return withRuntime(
    io,
    values['data-dir'],
    async (rt) => {
      const all = rt.sites.list();
      const chosen = values.site?.length
        ? values.site.map((ref) => {
            const s = rt.sites.get(ref);
            if (!s) throw new CliError(`no site named "${ref}"`, EXIT.usage);
            return all.find((x) => x.id === s.id) ?? s;
          })
        : all;
      const text = `${JSON.stringify(exportSiteList(chosen, { exportedAt: new Date(), exportedBy: osUser() }), null, 2)}\n`;
      if (file === '-') {
        io.stdout(text);
        return EXIT.ok;
      }
      try {
        // Never over another file unless asked: an export is often named like the list it came from.
        await writeFile(file, text, { flag: values.force ? 'w' : 'wx', mode: 0o644 });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw new CliError(code === 'EEXIST' ? `${file} exists: choose another name, or --force to replace it` : `cannot write ${file}: ${(err as Error).message}`, EXIT.usage);
      }
      io.stdout(`exported ${chosen.length} ${chosen.length === 1 ? 'site' : 'sites'} to ${file} (no passwords: each workstation logs in with its own)\n`);
      return EXIT.ok;
    },
    { secrets: false },
  );
}

/** `fleetdeck site import FILE [--dry-run] [--replace] [--json]`. */
async function siteImport(io: CliIo, args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { ...DATA_DIR, 'dry-run': { type: 'boolean', default: false }, replace: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
  });
  const file = positionals[0];
  if (positionals.length !== 1 || !file) throw new CliError('usage: fleetdeck site import FILE [--dry-run] [--replace] [--json]', EXIT.usage);
  const text = file === '-' ? await io.readStdin() : await readLocalFile(file, 'import');
  const dryRun = values['dry-run'] ?? false;
  return withRuntime(io, values['data-dir'], async (rt) => {
    const plan = await importSiteList(rt.sites, file, text, {
      replace: values.replace ?? false,
      dryRun,
      now: new Date(),
      forget: async (id) => {
        await rt.secrets.deleteAll(sitePrefix(id));
      },
    });
    if (values.json) {
      printJson(io, plan);
      return EXIT.ok;
    }
    const verb: Record<ImportStep['action'], string> = dryRun
      ? { add: 'would add', replace: 'would replace', skip: 'would skip', unchanged: 'unchanged' }
      : { add: 'added', replace: 'replaced', skip: 'skipped', unchanged: 'unchanged' };
    for (const step of plan.steps) {
      printRow(io, [verb[step.action], step.name, ...(step.local && step.local !== step.name ? [`(here "${step.local}")`] : [])]);
      for (const c of step.conflicts) printRow(io, [`conflict: ${c}`], '  ');
      if (step.note) printRow(io, [step.note], '  ');
    }
    const count = (a: ImportStep['action']): number => plan.steps.filter((s) => s.action === a).length;
    const skipped = count('skip');
    io.stdout(
      `${dryRun ? 'dry run, nothing changed: ' : ''}${count('add')} added, ${count('replace')} replaced, ${count('unchanged')} unchanged, ${skipped} skipped` +
        (skipped > 0 && !values.replace ? ' (--replace takes the file\'s version of a conflicting site)' : '') +
        '\n',
    );
    if (!dryRun && count('add') > 0) io.stdout('log in to each new site with "fleetdeck login SITE --password-stdin"\n');
    return EXIT.ok;
  }, { secrets: !dryRun });
}
