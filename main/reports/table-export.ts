import fs from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../../app/errors.js';
import type { TableExport } from '../../app/ipc/contract.js';
import { toCsv } from './csv.js';
import { sha256 } from './manifest.js';

/**
 * Writes one table a fleet view shows (capacity planning, version drift, a configuration
 * comparison) to a new file: CSV (formula-neutralized, like report CSVs) or JSON (one object per
 * row, keyed by the column labels). The table holds only what the view shows from the redacted
 * cache: secrets appear there as "set"/"not set" at most. An existing file is never overwritten.
 */
export async function exportTable(t: TableExport, now: Date = new Date()): Promise<{ path: string; bytes: number; sha256: string }> {
  if (!path.isAbsolute(t.file)) throw new InputError('type an absolute file path to export to');
  for (const r of t.rows) if (r.length !== t.columns.length) throw new InputError(`a row has ${r.length} cells for ${t.columns.length} columns`);
  const content =
    t.format === 'csv'
      ? toCsv(t.columns, t.rows)
      : `${JSON.stringify({ title: t.title, exportedAt: now.toISOString(), columns: t.columns, rows: t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c, r[i] ?? null]))) }, null, 2)}\n`;
  try {
    await fs.writeFile(t.file, content, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new InputError(`${t.file} already exists: choose a new file name`, 'conflict');
    if (code === 'ENOENT') throw new InputError(`the folder of ${t.file} does not exist`, 'not-found');
    if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR' || code === 'EROFS') throw new InputError(`cannot write ${t.file} (${code})`);
    throw err;
  }
  return { path: t.file, bytes: Buffer.byteLength(content), sha256: sha256(content) };
}
