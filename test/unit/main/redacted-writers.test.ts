import path from 'node:path';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { REDACTED, redact, type Redacted } from '../../../app/redact.js';
import type { HandlerAnswer, Handlers } from '../../../main/ipc/handlers.js';
import { ActionLog, openLogDatabase, type Database, type WriteIntent, type WriteOutcome } from '../../../main/store/index.js';
import { useTempDirs } from './store/temp-dir.js';

/**
 * The action log's writer and the `op:call` answer take only what `redact` produced, so
 * unredacted data fails `npm run typecheck` instead of reaching a file or a window. Each
 * `@ts-expect-error` below is a leak tsc must refuse (remove one and typecheck fails).
 */

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

const intent = { user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /users/create' };

describe('writers that take only redacted data', () => {
  it('the action log: params and answers must come from redact', () => {
    expectTypeOf<WriteIntent['params']>().toEqualTypeOf<Redacted<unknown>>();
    expectTypeOf<WriteOutcome['message']>().toEqualTypeOf<Redacted<string>>();
    const raw = { body: { Name: 'u1', Password: 'pw-typed-1' } };
    // @ts-expect-error parameters that never went through redact
    const leakyIntent: WriteIntent = { ...intent, params: raw };
    // @ts-expect-error an answer that never went through redact
    const leakyOutcome: WriteOutcome = { result: 'ok', message: 'echo pw-typed-1' };
    void leakyIntent;
    void leakyOutcome;

    // What the type accepts is what is stored, and it holds no secret.
    const dir = tempDir();
    const db = openLogDatabase(dir);
    open.push(db);
    const log = new ActionLog({ db, file: path.join(dir, 'actions.db') });
    const pending = log.begin({ ...intent, params: redact(raw) });
    const rec = log.complete(pending, { result: 'ok', message: redact('echo pw-typed-1', ['pw-typed-1']) });
    expect(rec).toMatchObject({ params: { body: { Name: 'u1', Password: REDACTED } }, message: `echo ${REDACTED}` });
    expect(JSON.stringify(log.list())).not.toContain('pw-typed-1');
  });

  it('the op:call answer: its handler must return a redacted result', () => {
    expectTypeOf<HandlerAnswer<'op:call'>>().toEqualTypeOf<{ result: Redacted<unknown> }>();
    const answer = (result: unknown): Awaited<ReturnType<Handlers['op:call']>> => ({ result: redact(result) });
    expect(answer({ Password: 'x-secret-1', Name: 'n' })).toEqual({ result: { Password: REDACTED, Name: 'n' } });
    // @ts-expect-error a system's answer returned as read, not redacted
    const leaky = (result: unknown): Awaited<ReturnType<Handlers['op:call']>> => ({ result });
    void leaky;
  });
});
