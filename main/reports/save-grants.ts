import fs from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../../app/errors.js';

/**
 * Where exports may be written from a window: only where the admin chose in a dialog main showed.
 * A dialog's answer becomes a grant (one file or one folder), used once and only within
 * {@link GRANT_TTL_MS}; the writers below take a grant, never a path, so no path a window names
 * can reach the disk.
 */

/** How long a dialog's answer may be written to: long enough to build a large report. */
export const GRANT_TTL_MS = 5 * 60_000;

/** What a dialog answered: a file to write, or a folder to create an export folder in. */
export type GrantKind = 'file' | 'folder';

/** An opaque permission to write once to what the admin chose; only {@link SaveGrants} makes one. */
export interface SaveGrant {
  readonly kind: GrantKind;
  /** The chosen path, to show the admin. */
  readonly path: string;
}

/** The dialogs main shows (Electron). Undefined when the admin cancels. */
export interface SaveDialogs {
  /** A save dialog for one file, suggesting `fileName`. */
  chooseFile(suggested: { fileName: string }): Promise<SaveGrant | undefined>;
  /** A folder dialog: the export is written to a new folder named `folderName` inside the chosen one. */
  chooseFolder(suggested: { title: string; folderName: string }): Promise<SaveGrant | undefined>;
  /** The grants its answers became; the writers take them from here. */
  readonly grants: SaveGrants;
}

/** The grants issued from dialog answers, each taken once before it expires. */
export class SaveGrants {
  readonly #live = new Map<SaveGrant, number>();
  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs: number = GRANT_TTL_MS,
  ) {}

  /** Records a dialog's answer as a grant. */
  issue(kind: GrantKind, chosen: string): SaveGrant {
    const grant: SaveGrant = Object.freeze({ kind, path: path.resolve(chosen) });
    this.#live.set(grant, this.now() + this.ttlMs);
    return grant;
  }

  /**
   * The path a grant allows, consuming it.
   * @throws InputError when the grant was not issued here, was used, has expired or is of another kind.
   */
  take(grant: SaveGrant, kind: GrantKind): string {
    const until = this.#live.get(grant);
    this.#live.delete(grant);
    for (const [g, t] of this.#live) if (t <= this.now()) this.#live.delete(g);
    if (until === undefined || grant.kind !== kind) throw new InputError('main writes only where you chose in its save dialog: choose again');
    if (until <= this.now()) throw new InputError('the save dialog was answered too long ago: export again and choose where');
    return grant.path;
  }

  /** Writes one file where a file grant allows, private (0600); the dialog confirmed any overwrite. */
  async writeFile(grant: SaveGrant, data: string | Uint8Array): Promise<string> {
    const target = this.take(grant, 'file');
    await writePrivate(target, data, 'w');
    return target;
  }
}

/**
 * Writes a file readable by its owner only (0600, also when it replaced one), turning what the
 * file system refuses into an error the admin can act on.
 */
export async function writePrivate(target: string, data: string | Uint8Array, flag: 'w' | 'wx'): Promise<void> {
  try {
    await fs.writeFile(target, data, { flag, mode: 0o600 });
    if (flag === 'w') await fs.chmod(target, 0o600);
  } catch (err) {
    throw fileError(err, target);
  }
}

/** Creates a folder readable by its owner only (0700); its parent must exist. */
export async function makePrivateDir(target: string, recursive = false): Promise<void> {
  try {
    await fs.mkdir(target, { mode: 0o700, recursive });
    // mkdir's mode passes through the umask and leaves a folder that existed (an empty one chosen) as it was.
    if (process.platform !== 'win32') await fs.chmod(target, 0o700);
  } catch (err) {
    throw fileError(err, target);
  }
}

/** A file system refusal as a coded error naming the path; other errors pass through. */
export function fileError(err: unknown, target: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  const shown = JSON.stringify(target.length > 300 ? `${target.slice(0, 300)}…` : target);
  switch (code) {
    case 'EEXIST':
      return new InputError(`${shown} already exists: choose a new name`, 'conflict');
    case 'ENOENT':
    case 'ENOTDIR':
      return new InputError(`the folder of ${shown} does not exist`, 'not-found');
    case 'EACCES':
    case 'EPERM':
    case 'EISDIR':
    case 'EROFS':
    case 'ENOSPC':
      return new InputError(`cannot write ${shown} (${code})`);
    case 'ENAMETOOLONG':
      return new InputError('the path is too long for this file system: choose a shorter one');
    case 'ERR_INVALID_ARG_VALUE':
    case 'ERR_INVALID_ARG_TYPE':
      return new InputError('the path holds a character no file name may hold (NUL)');
    default:
      return err;
  }
}
