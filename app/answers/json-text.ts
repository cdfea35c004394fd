/**
 * JSON.parse for answers, keeping integers beyond 2^53 exact. The interface's integers are int64;
 * JSON.parse reads them as doubles, so two notification ids or system ids past 2^53 can come out
 * as the same number (and a merge would take one for the other). Such literals are read as their
 * decimal text instead; the normaliser then keeps the text for identifier fields and makes a number
 * of it everywhere else (`normalise.ts`).
 *
 * Why not a reviver: JSON.parse only hands a reviver the source text from V8 11.4 on (Node 21,
 * Chromium 114); Node 20 would need a parser of our own, and a reviver slows every answer. Here,
 * an answer whose parsed numbers all lie within ±(2^53 − 1) is kept as parsed; the others are read
 * again after one rewriting pass of the text.
 */

/** A number literal of 16 digits or more that is not inside a string can only follow `:`, `[` or `,`. */
const LONG_LITERAL_HINT = /[:[,]\s*-?\d{16}/;
/** A string literal (left as it is) or a whole integer literal of 16+ digits (no fraction, no exponent). */
const TOKENS = /"[^"\\]*(?:\\.[^"\\]*)*"|(?<![\d.eE+-])-?\d{16,}(?![\d.eE])/g;
/** How deep {@link parseAnswerJson} looks for numbers JSON.parse may have rounded before it falls back to scanning the text. */
const PARSE_DEPTH = 1024;

/** An answer's JSON value, and whether it nests deeper than asked. */
export interface AnswerJson {
  value: unknown;
  /** Arrays/objects nest deeper than `maxDepth` levels: `value` is then not checked for rounded numbers. */
  tooDeep: boolean;
}

/**
 * Parses JSON text; integer literals beyond ±(2^53 − 1) become their decimal text.
 * @throws SyntaxError as JSON.parse does
 */
export function parseAnswerJson(text: string): unknown {
  const { value, tooDeep } = readAnswerJson(text, PARSE_DEPTH);
  return tooDeep && LONG_LITERAL_HINT.test(text) ? JSON.parse(exactText(text)) : value;
}

/**
 * {@link parseAnswerJson} and the depth check of an answer in one walk of the parsed value: most
 * answers hold no number beyond 2^53, and finding that on the parsed value costs less than a scan
 * of the text (a fifth of the client's parsing). When one is there, the text is read again with
 * its long integer literals as strings (a number past 2^53 that is no such literal, 1e300, reads
 * the same both ways).
 * @throws SyntaxError as JSON.parse does
 */
export function readAnswerJson(text: string, maxDepth: number): AnswerJson {
  const value = JSON.parse(text) as unknown;
  const found = scan(value, 0, maxDepth);
  if (found & TOO_DEEP) return { value, tooDeep: true };
  return { value: found & UNSAFE ? (JSON.parse(exactText(text)) as unknown) : value, tooDeep: false };
}

const UNSAFE = 1;
const TOO_DEEP = 2;

/** Flags of a parsed value: a number beyond the safe integers, nesting of `max` levels or more. Recursion stops at `max`. */
function scan(v: unknown, depth: number, max: number): number {
  if (typeof v === 'number') return v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER ? UNSAFE : 0;
  if (typeof v !== 'object' || v === null) return 0;
  if (depth >= max) return TOO_DEEP;
  let found = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      found |= scan(v[i], depth + 1, max);
      if (found & TOO_DEEP) return found;
    }
    return found;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) {
    found |= scan(o[k], depth + 1, max);
    if (found & TOO_DEEP) return found;
  }
  return found;
}

/** The text with every integer literal beyond ±(2^53 − 1) outside strings turned into a string of its digits. */
function exactText(text: string): string {
  return text.replace(TOKENS, (token) => (token.startsWith('"') || Number.isSafeInteger(Number(token)) ? token : `"${token}"`));
}
