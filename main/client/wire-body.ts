import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw, type InputType, type ZlibOptions } from 'node:zlib';
import { ProtocolError } from './errors.js';

/**
 * How an answer's bytes become text, and what an answer that is not the service's own says. The
 * document describes JSON bodies only; what sits between the desk and the system (proxies, load
 * balancers, web servers in front of the service) adds compression, byte order marks, HTML error
 * pages, Retry-After and RFC 7807 problem details. `docs/assumptions.md` lists what is decided here.
 */

type Decoder = (input: InputType, options: ZlibOptions) => Promise<Buffer>;

const GUNZIP = promisify(gunzip) as Decoder;
const INFLATE = promisify(inflate) as Decoder;
const INFLATE_RAW = promisify(inflateRaw) as Decoder;
const BROTLI = promisify(brotliDecompress) as Decoder;

/**
 * Undoes the Content-Encoding of a body (gzip, x-gzip, deflate with or without its zlib header, br;
 * several in the order applied), never yielding more than `maxBytes`: a small compressed answer
 * cannot expand past the limit the uncompressed one would have.
 * @throws ProtocolError for an unknown encoding or bytes that do not decode
 * @throws RangeError (code ERR_BUFFER_TOO_LARGE) when the decoded body would exceed `maxBytes`
 */
export async function decodeContent(bytes: Buffer, contentEncoding: string | undefined, maxBytes: number, where: string): Promise<Buffer> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let out = bytes;
  // Encodings are listed in the order they were applied: undo them from the last.
  for (const coding of codings.reverse()) {
    const decode = decoderOf(coding, out);
    if (!decode) throw new ProtocolError(`${where}: the answer is encoded as "${coding}", which Fleetdeck cannot decode (gzip, deflate and br are read)`);
    try {
      out = await decode(out, { maxOutputLength: Math.max(1, maxBytes) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw err;
      throw new ProtocolError(`${where}: the answer says it is ${coding}-compressed but does not decode (${(err as Error).message})`);
    }
  }
  return out;
}

function decoderOf(coding: string, bytes: Buffer): Decoder | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return GUNZIP;
    case 'br':
      return BROTLI;
    case 'deflate':
      // RFC 9110 means the zlib format; some servers send raw deflate under the same name.
      return hasZlibHeader(bytes) ? INFLATE : INFLATE_RAW;
    default:
      return undefined;
  }
}

function hasZlibHeader(b: Buffer): boolean {
  if (b.length < 2) return false;
  const cmf = b[0] as number;
  const flg = b[1] as number;
  return (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}

/** UTF-8 text of a body without a leading byte order mark (which JSON.parse refuses). */
export function bodyText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Retry-After as milliseconds from `nowMs`: delay-seconds or an HTTP-date (RFC 9110 §10.2.3). A date
 * in the past is 0; anything else unreadable is undefined.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Whether a body is JSON text (the service's own answer) rather than a page from something in front of it. */
export function isJsonText(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A few words that say what a non-JSON page is: its HTML title, else its first text. */
export function pageSummary(text: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1] ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(text)?.[1];
  const plain = (title ?? text.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
  if (!plain) return 'an empty body';
  return `"${plain.length > 80 ? `${plain.slice(0, 77)}…` : plain}"`;
}

/**
 * The message a failure answer carries: the service's JSON string (the document's form), an RFC 7807
 * problem's title and detail (with an ASP.NET-style `errors` map), else the raw text.
 */
export function serverMessage(text: string): string | undefined {
  if (!text) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof v === 'string') return v;
  return problemText(v) ?? text;
}

/** `title: detail (field: message; …)` of a problem-details object, or undefined when it is none. */
function problemText(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const fields = new Map(Object.entries(v).map(([k, x]) => [k.toLowerCase(), x] as const));
  const title = textOf(fields.get('title'));
  const detail = textOf(fields.get('detail'));
  if (title === undefined && detail === undefined) return undefined;
  const main = [title, detail].filter((x): x is string => x !== undefined && x !== '').join(': ');
  const errors = fields.get('errors');
  const listed: string[] = [];
  if (typeof errors === 'object' && errors !== null && !Array.isArray(errors)) {
    for (const [field, messages] of Object.entries(errors)) {
      const m = (Array.isArray(messages) ? messages : [messages]).map(textOf).filter((x): x is string => Boolean(x));
      if (m.length) listed.push(`${field}: ${m.join(' ')}`);
    }
  }
  return listed.length ? `${main} (${listed.join('; ')})` : main;
}

function textOf(v: unknown): string | undefined {
  return typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : undefined;
}
