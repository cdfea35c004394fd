import { randomBytes } from 'node:crypto';

/**
 * JSON text that crosses to the renderer as it is: a large cached answer is not parsed and
 * serialised again in main only to be parsed once more in the renderer. Handlers return it as the
 * answer or as one of the answer's own properties (`cache:read` → `{ value: RawJson, at, stale }`);
 * both shells (the browser shell's HTTP body, Electron's IPC answer) send the envelope as the text
 * {@link answerJson} makes. The text must be one well-formed JSON value (the offline cache checks
 * it before handing it out).
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
