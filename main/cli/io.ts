import { EXIT } from '../../app/errors.js';
import { safeJson, terminalField, terminalText } from '../../app/safe-text.js';
import type { SecretStore } from '../secrets/secret-store.js';

/** Where a command writes, injected so tests can run commands in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads all of standard input (for --password-stdin). */
  readStdin: () => Promise<string>;
  env: NodeJS.ProcessEnv;
  /** The keychain the command uses instead of the OS's (tests: the one the app's runtime used). */
  keychain?: SecretStore;
}

/** A command failure with the exit code it maps to and a message for stderr. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** Exit statuses: one table in `app/errors.ts`, from which README's is generated. */
export { EXIT } from '../../app/errors.js';

export function processIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readStdin: async () => {
      if (process.stdin.isTTY) throw new CliError('pipe the password or secret on standard input (--password-stdin, --secret-stdin)', EXIT.usage);
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    env: process.env,
  };
}

/** The first line of stdin without its line ending: passwords may contain spaces, never newlines. */
export function firstLine(text: string): string {
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/**
 * The same io, with every write made safe for a terminal: escape sequences, carriage returns,
 * bells and bidirectional formatting characters from systems' text are dropped, line feeds and
 * tabs kept. JSON output is unaffected: {@link printJson} escapes those characters inside strings.
 */
export function terminalIo(io: CliIo): CliIo {
  return { ...io, stdout: (t) => io.stdout(terminalText(t)), stderr: (t) => io.stderr(terminalText(t)) };
}

/** Prints a value as indented JSON: the exact data, with no character a terminal would act on. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${safeJson(value, 2)}\n`);
}

/** Prints one tab-separated line; each field (a name, a system's message) stays one field of one line. */
export function printRow(io: CliIo, fields: readonly string[], indent = ''): void {
  io.stdout(`${indent}${fields.map(terminalField).join('\t')}\n`);
}
