import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_TABLE, EXIT, EXIT_MEANING, FINDING_EXITS, exitCodeTable, type IpcErrorCode } from '../../../app/errors.js';

const IPC_CODES: readonly IpcErrorCode[] = ['validation', 'not-found', 'conflict', 'api', 'auth', 'login-required', 'paused', 'unreachable', 'outcome-unknown', 'cancelled', 'protocol', 'certificate', 'store', 'keychain', 'managed', 'internal'];

describe('the error table', () => {
  it('gives every code an IPC code, an exit status other than 0 and a sentence', () => {
    for (const code of ERROR_CODES) {
      const row = ERROR_TABLE[code];
      expect(IPC_CODES, code).toContain(row.ipc);
      expect(EXIT[row.exit], code).toBeGreaterThan(0);
      expect(row.sentence.length, code).toBeGreaterThan(0);
    }
  });

  it('ends every exit status but those reporting a finding (ok, alerts open) with at least one code, and gives each a meaning', () => {
    for (const name of Object.keys(EXIT) as Array<keyof typeof EXIT>) {
      expect(EXIT_MEANING[name].length).toBeGreaterThan(0);
      if (!FINDING_EXITS.includes(name)) expect(ERROR_CODES.some((c) => ERROR_TABLE[c].exit === name), name).toBe(true);
      else expect(ERROR_CODES.some((c) => ERROR_TABLE[c].exit === name), name).toBe(false);
    }
    expect(new Set(Object.values(EXIT)).size).toBe(Object.keys(EXIT).length);
  });

  it('keeps the promises the README makes: keychain crosses as keychain, login required exits 6, invalid input 2', () => {
    expect(ERROR_TABLE.keychain.ipc).toBe('keychain');
    expect(EXIT[ERROR_TABLE['login-required'].exit]).toBe(6);
    expect(EXIT[ERROR_TABLE.auth.exit]).toBe(6);
    expect(EXIT[ERROR_TABLE.validation.exit]).toBe(2);
    expect(EXIT[ERROR_TABLE.conflict.exit]).toBe(2);
    expect(EXIT[ERROR_TABLE.store.exit]).toBe(7);
    expect(EXIT[ERROR_TABLE.internal.exit]).not.toBe(EXIT.protocol);
  });

  it('is the exit-code table README.md shows', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const block = /<!-- exit-codes:start -->\n([\s\S]*?)\n<!-- exit-codes:end -->/.exec(readme)?.[1];
    expect(block).toBe(exitCodeTable());
  });
});
