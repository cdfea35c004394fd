import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { CodedError } from '../../app/errors.js';
import { exportedFileSchema } from '../../app/reports/schema.js';

/** Name of the manifest inside an export directory. */
export const MANIFEST_FILE = 'manifest.json';
/** Format marker of the manifest. */
export const MANIFEST_FORMAT = 'fleetdeck-export-manifest/1';

/** The manifest of an export directory. */
export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  /** Id in the report history of the data dir it was made from. */
  reportId: z.number().int().nullable(),
  title: z.string(),
  kind: z.string(),
  /** When the report's data was assembled. */
  generatedAt: z.string(),
  /** OS user who generated the report. */
  generatedBy: z.string(),
  /** When and by whom these files were written (a stored report can be exported again later). */
  exportedAt: z.string(),
  exportedBy: z.string(),
  appVersion: z.string(),
  source: z.enum(['cache', 'fresh']),
  scope: z.object({ sites: z.array(z.string()), systems: z.array(z.object({ site: z.string(), system: z.string() })) }),
  period: z.object({ since: z.string().nullable(), until: z.string().nullable() }),
  /** Per system, the oldest data the report used and its age at generation. */
  dataAges: z.array(z.object({ site: z.string(), system: z.string(), state: z.string(), at: z.string().nullable(), ageSeconds: z.number().nullable() })),
  /** Every other file of the directory, sorted by path (POSIX separators), with SHA-256. */
  files: z.array(exportedFileSchema),
  /** SHA-256 of this manifest's JSON without this field: catches a change to the manifest itself. */
  selfSha256: z.string(),
});
/** A parsed manifest. */
export type Manifest = z.infer<typeof manifestSchema>;

/**
 * The self-hash of a manifest: SHA-256 of its compact JSON without `selfSha256`, keys in the order
 * written. Not a signature (anyone can recompute it); it makes an accidental or careless edit of
 * the manifest show up like an edit of any other file.
 */
export function manifestSelfHash(manifest: Omit<Manifest, 'selfSha256'> | Manifest): string {
  const rest: Record<string, unknown> = { ...manifest };
  delete rest.selfSha256;
  return sha256(JSON.stringify(rest));
}

/** Lowercase hex SHA-256 of bytes. */
export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The manifest itself was edited (its self-hash does not match): every listing in it is suspect. */
export class ManifestChangedError extends CodedError {
  override readonly name = 'ManifestChangedError';
  constructor(message: string) {
    super('verification-failed', message);
  }
}

/** The outcome of {@link verifyExport}. */
export interface VerifyResult {
  ok: boolean;
  /** Files listed in the manifest whose bytes match. */
  intact: string[];
  /** Listed files whose content differs. */
  changed: string[];
  /** Listed files that are gone. */
  missing: string[];
  /** Files present but not listed. */
  added: string[];
  /** SHA-256 of manifest.json itself: compare with the fingerprint recorded at export. */
  manifestSha256: string;
  manifest: Manifest;
}

/** A listed path must stay inside the directory: relative, POSIX, no `..`, no empty segment. */
function safeRelative(p: string): boolean {
  return p.length > 0 && !p.startsWith('/') && !/^[a-zA-Z]:/.test(p) && !p.includes('\\') && p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

/** Every regular file under `dir`, as sorted POSIX paths relative to it. Symlinks count as files. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const e of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(p);
      else out.push(p);
    }
  };
  await walk('');
  return out.sort();
}

/**
 * Checks an export directory against its manifest: the manifest must match its own hash, every
 * listed file must exist with the listed SHA-256, and no other file may be present. The manifest is
 * not signed: whoever can change the files can rewrite it too, so an auditor compares
 * `manifestSha256` with the fingerprint printed (or recorded elsewhere) when it was exported.
 * @throws ManifestChangedError when manifest.json no longer matches its self-hash; Error when it is
 *   missing, not JSON or not a Fleetdeck manifest.
 */
export async function verifyExport(dir: string): Promise<VerifyResult> {
  let text: Buffer;
  try {
    text = await fs.readFile(path.join(dir, MANIFEST_FILE));
  } catch (err) {
    throw new Error(`${path.join(dir, MANIFEST_FILE)} cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}; is this a Fleetdeck report directory?`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString('utf8'));
  } catch {
    throw new Error(`${MANIFEST_FILE} is not valid JSON: it was damaged or replaced`);
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) throw new Error(`${MANIFEST_FILE} is not a Fleetdeck export manifest (${result.error.issues[0]?.path.join('.') ?? '?'}: ${result.error.issues[0]?.message ?? ''})`);
  // Parsed without the schema's reordering: the self-hash covers the keys in the order written.
  const manifest = result.data;
  if (manifestSelfHash(parsed as Manifest) !== manifest.selfSha256) throw new ManifestChangedError(`${MANIFEST_FILE} was changed after export: its content no longer matches its own hash`);
  for (const f of manifest.files) if (!safeRelative(f.path) || f.path === MANIFEST_FILE) throw new Error(`${MANIFEST_FILE} lists an invalid path ${JSON.stringify(f.path)}`);

  const present = new Set((await listFiles(dir)).filter((p) => p !== MANIFEST_FILE));
  const out: VerifyResult = { ok: false, intact: [], changed: [], missing: [], added: [], manifestSha256: sha256(text), manifest };
  for (const f of manifest.files) {
    if (!present.has(f.path)) {
      out.missing.push(f.path);
      continue;
    }
    present.delete(f.path);
    const bytes = await fs.readFile(path.join(dir, ...f.path.split('/')));
    if (sha256(bytes) === f.sha256 && bytes.length === f.bytes) out.intact.push(f.path);
    else out.changed.push(f.path);
  }
  out.added = [...present].sort();
  out.ok = out.changed.length === 0 && out.missing.length === 0 && out.added.length === 0;
  return out;
}
