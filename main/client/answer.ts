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

/**
 * What a call answers instead of a value when its caller's {@link AnswerCheck} said the answer's
 * text is one it already holds: the answer was checked to be JSON but not normalised.
 */
export const UNCHANGED_ANSWER: unique symbol = Symbol('unchanged answer');

/**
 * A 200 answer's text as a caller that skips answers it already holds sees it, before it is
 * normalised: once the text is known to be JSON of an allowed depth (what the answer would have
 * failed on is still failed on), only for a whole answer (not a 206, not paged by its headers).
 */
export interface SeenAnswer {
  /** The body as text (decoded, byte order mark dropped). */
  readonly text: string;
  /** The secrets masked in the answer (those sent with the call and the site's own): what the stored answer depends on besides the text. Never to be kept as they are. */
  readonly secrets: readonly string[];
  /** What the normaliser would read the answer by. */
  readonly context: AnswerContext | undefined;
}

/** Returns true when the caller already holds what `answer` would give: the call then answers {@link UNCHANGED_ANSWER}. */
export type AnswerCheck = (answer: SeenAnswer) => boolean;
