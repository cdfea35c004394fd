/**
 * Several calls in one exchange: the browser shell's `POST /ipc/batch`, which carries the first
 * frame's reads in one request (four `fetch` calls cost the page's main thread more than one,
 * and each answer is one more task for it to take in). No zod here: the renderer's first script imports it.
 *
 * The request is a JSON array of `[channel, request]` pairs. The answer is a line with the JSON array
 * of each envelope's length, then the envelopes' texts one after another, in the calls' order: each is
 * exactly the text a single call would answer, so the renderer decodes each with its one decoder.
 * Lengths rather than a separator, because a cached answer's stored text is spliced in as it is. They
 * count UTF-16 code units, as a JavaScript string does on both sides (a lone surrogate, the one thing
 * UTF-8 cannot carry, becomes U+FFFD: one unit for one).
 */
export const BATCH_PATH = '/ipc/batch';

/** Most calls one batch may carry (the first frame sends four). */
export const MAX_BATCH = 16;

/** One call of a batch: the channel and its request, as a single call would send them. */
export type BatchCall = readonly [channel: string, request: unknown];

/** The calls of a batch request's parsed body, or undefined when it is not one. */
export function batchCalls(body: unknown): BatchCall[] | undefined {
  if (!Array.isArray(body) || body.length === 0 || body.length > MAX_BATCH) return undefined;
  const calls: BatchCall[] = [];
  for (const call of body as unknown[]) {
    if (!Array.isArray(call) || call.length !== 2 || typeof call[0] !== 'string') return undefined;
    calls.push([call[0], call[1]]);
  }
  return calls;
}

/** One body of the envelopes' texts, in order. */
export function joinAnswers(texts: readonly string[]): string {
  return `${JSON.stringify(texts.map((t) => t.length))}\n${texts.join('')}`;
}

/**
 * The envelope texts of a body {@link joinAnswers} made for `count` calls; undefined when the body is
 * not one (cut short, another count).
 */
export function splitAnswers(body: string, count: number): string[] | undefined {
  const eol = body.indexOf('\n');
  if (eol < 0) return undefined;
  let lengths: unknown;
  try {
    lengths = JSON.parse(body.slice(0, eol));
  } catch {
    return undefined;
  }
  if (!Array.isArray(lengths) || lengths.length !== count || !lengths.every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) return undefined;
  const texts: string[] = [];
  let at = eol + 1;
  for (const n of lengths as number[]) {
    texts.push(body.slice(at, at + n));
    at += n;
  }
  return at === body.length ? texts : undefined;
}
