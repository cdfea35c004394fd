import { readFile } from 'node:fs/promises';
import type { Field, Operation, ValueType } from '../../app/catalog/index.js';
import { secretValues } from '../../app/redact.js';
import { CliError, EXIT, type CliIo } from './io.js';

/** The `call` options that give a write's secrets outside `--body`. */
export const SECRET_OPTIONS = {
  'secret-stdin': { type: 'string' as const },
  'secret-file': { type: 'string' as const, multiple: true as const },
  'secret-env': { type: 'string' as const, multiple: true as const },
};

export interface SecretArgs {
  /** `--secret-stdin NAME`: the first line of standard input. */
  stdin?: string | undefined;
  /** `--secret-file NAME=PATH`: the first line of the file. */
  files: readonly string[];
  /** `--secret-env NAME=VAR`: the value of an environment variable. */
  env: readonly string[];
}

/**
 * Puts the secrets given with `--secret-stdin`, `--secret-file` and `--secret-env` into the body
 * (never on the command line, where the process list and shell history would keep them). NAME is
 * one of the operation's secret fields (`ChapSecret`, `volume.EncryptionKey`…); an array field
 * (`AccessKeys`) takes one value per line. Warns when `--body` itself carries a secret.
 * @throws CliError (usage) for an unknown field, a field given twice, an unreadable file or an
 *   unset variable; nothing has been sent.
 */
export async function applySecretArgs(io: CliIo, op: Operation, body: unknown, args: SecretArgs, stdinInUse?: string): Promise<unknown> {
  if (secretValues(body).length) {
    io.stderr('fleetdeck: warning: --body carries a secret, which the process list and shell history can show; give it with --secret-stdin, --secret-file or --secret-env\n');
  }
  const given: Array<{ name: string; read: () => Promise<string> }> = [];
  if (args.stdin !== undefined) {
    if (stdinInUse) throw new CliError(`--secret-stdin: standard input already carries ${stdinInUse}; use --secret-file or --secret-env`, EXIT.usage);
    given.push({ name: args.stdin, read: () => io.readStdin() });
  }
  for (const pair of args.files) {
    const [name, path] = splitPair(pair, '--secret-file', 'NAME=PATH');
    given.push({
      name,
      read: () =>
        readFile(path, 'utf8').catch((err: unknown) => {
          throw new CliError(`--secret-file ${name}: cannot read ${path}: ${(err as Error).message}`, EXIT.usage);
        }),
    });
  }
  for (const pair of args.env) {
    const [name, variable] = splitPair(pair, '--secret-env', 'NAME=VARIABLE');
    given.push({
      name,
      read: async () => {
        const value = io.env[variable];
        if (value === undefined || value === '') throw new CliError(`--secret-env ${name}: the environment variable ${variable} is not set`, EXIT.usage);
        return value;
      },
    });
  }
  if (!given.length) return body;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new CliError('--body must be a JSON object to add secrets to it', EXIT.usage);
  }
  const out = structuredClone((body ?? {}) as Record<string, unknown>);
  for (const g of given) {
    const path = secretPath(op, g.name);
    const field = fieldAt(op.body, path);
    const lines = (await g.read()).split(/\r?\n/);
    const value = field && isArrayType(field.type) ? lines.filter((l) => l !== '') : (lines[0] ?? '');
    if (value === '' || (Array.isArray(value) && !value.length)) throw new CliError(`the secret for ${path.join('.')} is empty`, EXIT.usage);
    setAt(out, path, value);
  }
  return out;
}

function splitPair(pair: string, option: string, form: string): [string, string] {
  const eq = pair.indexOf('=');
  if (eq <= 0 || eq === pair.length - 1) throw new CliError(`${option} "${pair}": write it as ${form}`, EXIT.usage);
  return [pair.slice(0, eq), pair.slice(eq + 1)];
}

/** The catalog path of a secret field named by its path or, when unambiguous, its last name (any case). */
function secretPath(op: Operation, name: string): string[] {
  const bodySecrets = op.secrets.filter((p) => fieldAt(op.body, p.split('.')) !== undefined);
  const want = name.toLowerCase();
  const matches = bodySecrets.filter((p) => p.toLowerCase() === want);
  const byLast = matches.length ? matches : bodySecrets.filter((p) => (p.split('.').pop() as string).toLowerCase() === want);
  if (byLast.length === 1) return (byLast[0] as string).split('.');
  if (!bodySecrets.length) throw new CliError(`${op.key} sends no secret field`, EXIT.usage);
  throw new CliError(`"${name}" is not ${byLast.length ? 'one' : 'a'} secret field of ${op.key}; its secret fields: ${bodySecrets.join(', ')}`, EXIT.usage);
}

function fieldAt(fields: readonly Field[], path: readonly string[]): Field | undefined {
  let list = fields;
  let field: Field | undefined;
  for (const name of path) {
    field = list.find((f) => f.name.toLowerCase() === name.toLowerCase());
    if (!field) return undefined;
    list = typeof field.type === 'object' && 'fields' in field.type ? field.type.fields : [];
  }
  return field;
}

function isArrayType(type: ValueType): boolean {
  return typeof type === 'object' && 'array' in type;
}

/** Sets a value at a path, matching existing keys in any case (the service reads names so). */
function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const [i, name] of path.entries()) {
    const existing = Object.keys(node).find((k) => k.toLowerCase() === name.toLowerCase());
    if (i === path.length - 1) {
      if (existing !== undefined) throw new CliError(`${path.join('.')} is given twice (in --body and as a secret option)`, EXIT.usage);
      node[name] = value;
      return;
    }
    const next = existing === undefined ? undefined : node[existing];
    if (next === undefined) {
      const child: Record<string, unknown> = {};
      node[name] = child;
      node = child;
    } else if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      node = next as Record<string, unknown>;
    } else {
      throw new CliError(`${path.slice(0, i + 1).join('.')} in --body is not an object`, EXIT.usage);
    }
  }
}
