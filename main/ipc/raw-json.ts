import { randomBytes } from 'node:crypto';

/**
 * JSON text that crosses to the renderer as it is: a large cached answer is not parsed and
 * serialised again in main only to be parsed once more in the renderer. Handlers return it as the
 * answer or as one of the answer's own properties (`cache:read` → `{ value: RawJson, at, stale }`);
 * each shell turns it into its transport with {@link answerJson} or {@link materialize}. The text
 * must be one well-formed JSON value (the offline cache checks it before handing it out).
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * The answer as JSON text, with every RawJson spliced in as it is: the browser shell's body.
 * Placeholders carry a per-call random nonce, so no string in the answer can be taken for one.
 */
export function answerJson(answer: unknown): string {
  const raws: string[] = [];
  const nonce = randomBytes(12).toString('hex');
  const text = JSON.stringify(answer, (_key, v: unknown) => {
    if (!(v instanceof RawJson)) return v;
    raws.push(v.text);
    return `fleetdeck-raw-${nonce}-${raws.length - 1}`;
  });
  if (!raws.length) return text;
  return text.replace(new RegExp(`"fleetdeck-raw-${nonce}-(\\d+)"`, 'g'), (_m, i: string) => raws[Number(i)] as string);
}

/**
 * The answer as plain data, each RawJson (the answer itself or one of its own properties) parsed:
 * for transports that clone values (Electron IPC) and for callers of `dispatch` in-process.
 */
export function materialize(answer: unknown): unknown {
  if (answer instanceof RawJson) return JSON.parse(answer.text) as unknown;
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return answer;
  if (!Object.values(answer).some((v) => v instanceof RawJson)) return answer;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(answer)) {
    Object.defineProperty(out, k, { value: v instanceof RawJson ? (JSON.parse(v.text) as unknown) : v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
