/**
 * JSON.parse for answers, keeping integers beyond 2^53 exact. The interface's integers are int64;
 * JSON.parse reads them as doubles, so two notification ids or system ids past 2^53 can come out
 * as the same number (and a merge would take one for the other). Such literals are read as their
 * decimal text instead; the normaliser then keeps the text for identifier fields and makes a number
 * of it everywhere else (`normalise.ts`).
 *
 * Why not a reviver: JSON.parse only hands a reviver the source text from V8 11.4 on (Node 21,
 * Chromium 114); Node 20 would need a parser of our own, and a reviver slows every answer. Here,
 * answers without a long digit run outside strings are parsed as they are; the others get one
 * rewriting pass first.
 */

/** A number literal of 16 digits or more that is not inside a string can only follow `:`, `[` or `,`. */
const LONG_LITERAL_HINT = /[:[,]\s*-?\d{16}/;
/** A string literal (left as it is) or a whole integer literal of 16+ digits (no fraction, no exponent). */
const TOKENS = /"[^"\\]*(?:\\.[^"\\]*)*"|(?<![\d.eE+-])-?\d{16,}(?![\d.eE])/g;

/**
 * Parses JSON text; integer literals beyond ±(2^53 − 1) become their decimal text.
 * @throws SyntaxError as JSON.parse does
 */
export function parseAnswerJson(text: string): unknown {
  if (!LONG_LITERAL_HINT.test(text)) return JSON.parse(text) as unknown;
  const rewritten = text.replace(TOKENS, (token) => (token.startsWith('"') || Number.isSafeInteger(Number(token)) ? token : `"${token}"`));
  return JSON.parse(rewritten) as unknown;
}
