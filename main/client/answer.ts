import { normaliseAnswer, type AnswerContext } from '../../app/answers/normalise.js';
import type { Operation } from '../../app/catalog/index.js';
import { ProtocolError } from './errors.js';

/**
 * A 200 answer whose shape the client does not recognise (`app/answers/normalise.ts`): it is not
 * shown, cached or reported as anything, and a refresh marks the system `protocol-error` with
 * {@link UnrecognisedAnswerError.summary}.
 */
export class UnrecognisedAnswerError extends ProtocolError {
  override readonly name = 'UnrecognisedAnswerError';
  constructor(
    /** The operation's key, `GET /hosts/list`. */
    readonly operation: string,
    /** A sketch of what came back (keys and kinds; no string values). */
    readonly answered: string,
    readonly expected: string,
    where: string,
  ) {
    super(`${where} answered ${answered}, not ${expected}: the answer is not understood, so nothing of it is shown or kept`, undefined, 'unrecognised-answer');
  }

  /** One line for a system's status: `GET /hosts/list answered {"items": [3 objects]}`. */
  get summary(): string {
    return `${this.operation} answered ${this.answered}`;
  }
}

/**
 * The answer normalised for `op`, as every caller of the client gets it.
 * @throws UnrecognisedAnswerError when its shape is not one the normaliser recognises
 */
export function normalisedAnswer(op: Operation, value: unknown, where: string, clock?: AnswerContext): unknown {
  const result = normaliseAnswer(op.response, value, clock);
  if (!result.ok) throw new UnrecognisedAnswerError(op.key, result.answered, result.expected, where);
  return result.value;
}
