import { SECRET_FIELD_NAMES } from './catalog/operations.js';

declare const redactedBrand: unique symbol;

/**
 * A value that has been through {@link redact} (or {@link redactedJson}): the only functions that
 * produce one. Writers that put data outside main's memory — the report history and the export
 * formats, the offline cache, the IPC answer of an operation — take a `Redacted` value, so data that
 * was never redacted fails `tsc` there instead of reaching a file, a window or a terminal, and data
 * that was is not walked again. The brand exists only for the compiler.
 */
export type Redacted<T> = T & { readonly [redactedBrand]: true };

/** What a redacted secret is replaced with. */
export const REDACTED = '[redacted]';

const SECRET_KEYS = new Set([...SECRET_FIELD_NAMES, 'authorization', 'token', 'password', 'secret', 'sedpassword'].map((k) => k.toLowerCase()));

/** True when a field name (any case) names a secret of the interface. */
export function isSecretField(name: string): boolean {
  return SECRET_KEYS.has(name.toLowerCase());
}

/**
 * Returns a deep copy with the value of every secret field replaced by `[redacted]`, whatever its case
 * or nesting. The single redaction function: cache, action log, logs, errors and exports all use it.
 * `extraSecrets` are literal values (a session token, a typed password) also masked inside strings.
 */
export function redact<T>(value: T, extraSecrets: readonly string[] = []): Redacted<T> {
  return walk(value, secretPattern(extraSecrets), new WeakSet(), true) as Redacted<T>;
}

/**
 * Returns a deep copy in which every occurrence of the given secret values inside strings, in any
 * spelling {@link secretPattern} knows, is replaced by `[redacted]`; field names are not looked at. For answers that may echo what was sent
 * (a system that repeats a CHAP secret or the session token in its message) where a secret field
 * is the point of the answer (the session token of a login). Values shorter than 4 characters are
 * not masked: they would hide ordinary words and numbers. With `whole`, only a secret's whole text is
 * masked, in every spelling, never a prefix or a piece: for a secret that was not sent, which a
 * system can only repeat whole (the site's password in an event log), and which may well begin
 * like ordinary text (`fleetdeck-demo` and an IQN's `com.fleetdeck`).
 */
export function maskSecrets<T>(value: T, secrets: readonly string[], whole = false): T {
  const pattern = secretPattern(secrets, whole);
  return pattern ? (walk(value, pattern, new WeakSet(), false) as T) : value;
}

/**
 * Every secret value in a request: the non-empty strings (and numbers) under a secret field name at
 * any depth, so what the app sent can be masked wherever the answer or an error is written.
 * Iterative, so a hostile nesting depth cannot overflow the stack.
 */
export function secretValues(value: unknown): string[] {
  const out = new Set<string>();
  const stack: Array<{ v: unknown; secret: boolean }> = [{ v: value, secret: false }];
  const seen = new WeakSet<object>();
  while (stack.length) {
    const { v, secret } = stack.pop() as { v: unknown; secret: boolean };
    if (secret && (typeof v === 'string' || typeof v === 'number') && String(v) !== '') out.add(String(v));
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) for (const item of v) stack.push({ v: item, secret });
    else for (const [k, child] of Object.entries(v)) stack.push({ v: child, secret: secret || isSecretField(k) });
  }
  return [...out];
}

/**
 * `JSON.stringify(redact(value))` without the copy: the JSON text of a value with every secret
 * field masked. Used where large read results are stored (the offline cache), so a refresh does
 * not build a second object tree per answer. Like `JSON.stringify`, returns `undefined` for a
 * value JSON cannot represent and throws on a cycle.
 */
export function redactedJson(value: unknown): Redacted<string> | undefined {
  // Most answers hold no secret field, and then the plain text is the redacted text: JSON.stringify
  // without a replacer is several times faster, and the text shows whether any key names a secret.
  const plain = JSON.stringify(value) as string | undefined;
  if (plain === undefined || !SECRET_KEY_IN_JSON.test(plain)) return plain as Redacted<string> | undefined;
  return JSON.stringify(value, secretReplacer) as Redacted<string>;
}

/**
 * A secret field name written as a JSON key (`"Password":`), in any case. Case folding (`iu`) also
 * matches the keys whose lower case is a secret name without being ASCII (the Kelvin sign for
 * "k"), and JSON.stringify escapes no letter of a key, so no key the replacer masks is missed; a
 * string value that merely contains such text only costs the slower path.
 */
const SECRET_KEY_IN_JSON = new RegExp(`"(?:${[...SECRET_KEYS].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})":`, 'iu');

function secretReplacer(this: unknown, key: string, v: unknown): unknown {
  // Array elements arrive with their index as key: never a secret name.
  return key !== '' && !Array.isArray(this) && isSecretField(key) && v !== null && v !== undefined && v !== '' ? REDACTED : v;
}

function walk(value: unknown, literals: RegExp | null, seen: WeakSet<object>, byField: boolean): unknown {
  if (typeof value === 'string') return maskLiterals(value, literals);
  if (typeof value !== 'object' || value === null) return value;
  // `seen` holds the objects on the current path only: a cycle is cut, a shared object is not.
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => walk(v, literals, seen, byField));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const masked = byField && isSecretField(k) && v !== null && v !== undefined && v !== '' ? REDACTED : walk(v, literals, seen, byField);
      // defineProperty: a "__proto__" key from parsed JSON stays a plain key, never a prototype.
      Object.defineProperty(out, k, { value: masked, enumerable: true, writable: true, configurable: true });
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function maskLiterals(text: string, pattern: RegExp | null): string {
  if (pattern === null) return text;
  pattern.lastIndex = 0;
  return pattern.test(text) ? text.replace(pattern, REDACTED) : text;
}

/** Secrets shorter than this are not masked: they would hide ordinary words and numbers. */
const MIN_SECRET = 4;
/** A secret cut short to this many characters or more is still masked. */
const MIN_PREFIX = 8;
/** Base64 runs shorter than this are not masked: too likely to occur by chance. */
const MIN_BASE64 = 8;
/** A base64 run cut short to this many characters (8 bytes of the secret) or more is still masked. */
const MIN_BASE64_PREFIX = 11;

/**
 * One pattern that finds the given secrets in every spelling a system or a proxy may echo them in:
 * any letter case, URL-encoded (also twice, `+` for a space), JSON escapes (`\"`, `\u0022`, also
 * nested), C and Python byte escapes (`\xc3\xa9`), HTML entities (decimal, hex, and named: HTML 5's
 * for ASCII punctuation, HTML 4's for Latin-1, Greek and typography), any mix of these character by
 * character, cut short to 8 characters or more, and base64 (standard or URL-safe) or hex of the
 * secret or of a body holding it at any byte offset. A piece of the secret (a body split across
 * fields or lines) is masked from its first 8-character boundary on when 8 or more characters
 * follow it there, in any letter case: from a piece, at most 7 characters stay visible. `null` when
 * no secret is long enough to mask. Every repetition is bounded, so the scan stays linear in the
 * text whatever it holds.
 */
export function secretPattern(secrets: readonly string[], whole = false): RegExp | null {
  const source = probeOf(secrets, whole).source();
  // A new object each time (a global pattern carries its lastIndex); V8 compiles a source once.
  return source === null ? null : new RegExp(source, 'g');
}

/**
 * The tests of one list of secrets, built once: the plain pieces and base64 heads that
 * {@link mentionsSecret} looks for first, and the pattern's source, built when first needed.
 */
interface SecretProbe {
  readonly long: readonly string[];
  /**
   * Lower-case runs of 8 characters that any masked plain echo holds (the first of each secret,
   * each at an 8-character boundary, the last; a shorter secret whole; the hex of its first 8
   * bytes), every `+` written as a space (see {@link probeMentions}): one pattern finding any. Of
   * a list masked whole, each secret and its hex whole, as only a whole plain echo is masked: a
   * password that begins like ordinary text (`fleetdeck-demo` and `fleetdeck.example`) does not
   * send every answer holding that text to the pattern.
   */
  readonly pieces: RegExp;
  /** The first characters of every base64 run of each secret (standard and URL-safe; whole runs when masked whole): one pattern finding any. */
  readonly heads: RegExp;
  source(): string | null;
}

/**
 * The probes built last, by secret list: a session's token is checked against each of its
 * answers, and a fleet has a token per system. Bounded: past the bound the oldest is dropped, so
 * a secret no longer sent does not stay. A probe is a few hundred bytes; the pattern sources
 * (several kilobytes, compiled far larger) are kept for fewer lists. A list of one secret (an
 * answer's token, a site's password) is kept under that secret itself, by whether it is masked
 * whole: the text a session holds, whose hash V8 keeps with it, rather than a new JSON text per answer.
 */
const MAX_PROBES = 4096;
const PROBES = new Map<string, SecretProbe>();
const SINGLE_PROBES = { whole: new Map<string, SecretProbe>(), pieces: new Map<string, SecretProbe>() };
const MAX_SOURCES = 64;
const SOURCES = new Map<string, string | null>();

/** The value kept under `k` in `map`, made by `make` when missing; past `max` entries the oldest made is dropped. */
function kept<T>(map: Map<string, T>, k: string, max: number, make: () => T): T {
  const held = map.get(k);
  if (held !== undefined) return held;
  const made = make();
  map.set(k, made);
  if (map.size > max) map.delete(map.keys().next().value as string);
  return made;
}

/** The probe of no secret: it finds nothing. */
const NO_PROBE: SecretProbe = { long: [], pieces: /(?!)/, heads: /(?!)/, source: () => null };

function probeOf(secrets: readonly string[], whole: boolean): SecretProbe {
  if (secrets.length === 0) return NO_PROBE;
  // JSON of the flag and the list: no two lists (nor a list masked whole and one that is not) share a key.
  const make = (): SecretProbe => newProbe(secrets, whole, JSON.stringify([whole, ...secrets]));
  if (secrets.length === 1) return kept(whole ? SINGLE_PROBES.whole : SINGLE_PROBES.pieces, secrets[0] as string, MAX_PROBES, make);
  return kept(PROBES, JSON.stringify([whole, ...secrets]), MAX_PROBES, make);
}

function newProbe(secrets: readonly string[], whole: boolean, memoKey: string): SecretProbe {
  const long = secrets.filter((s) => s.length >= MIN_SECRET);
  return {
    long,
    pieces: anyOf(long.flatMap((s) => jsonForms(s).flatMap((form) => (whole ? [form, hexOf(utf8(form))] : [...pieceStarts(form, false).map((i) => [...form].slice(i, i + MIN_PREFIX).join('')), hexOf(utf8(form).slice(0, MIN_PREFIX))])).map((p) => p.toLowerCase().replaceAll('+', ' ')))),
    // Each head once: a secret without JSON escapes is its own JSON form, and a head without `+` or `/` its own URL-safe one.
    heads: anyOf([...new Set(long.flatMap((s) => jsonForms(s).flatMap((form) => base64Runs(form).flatMap((run) => (run.length < MIN_BASE64 ? [] : whole ? [run, urlSafe(run)] : base64Heads(run))))))]),
    source: () => kept(SOURCES, memoKey, MAX_SOURCES, () => patternSource(long, whole)),
  };
}

/**
 * A pattern finding any of the texts, as they are (none: it finds nothing). One scan of a long
 * text for all of them costs a fraction of one substring search per text.
 */
function anyOf(texts: readonly string[]): RegExp {
  return new RegExp(texts.length ? texts.map(escapeRegExp).join('|') : '(?!)');
}

function patternSource(secrets: readonly string[], whole: boolean): string | null {
  const alternatives = new Set<string>();
  const named = namedReferences();
  // Every character a match can start with: an escape's first, or the first character itself.
  const starts = new Set<string>();
  const startWith = (ch: string, anyCaseToo: boolean): void => {
    starts.add(escapeRegExp(ch));
    if (anyCaseToo) for (const c of [ch.toLowerCase(), ch.toUpperCase()]) if ([...c].length === 1) starts.add(escapeRegExp(c));
  };
  for (const s of new Set(secrets)) {
    if (s.length < MIN_SECRET) continue;
    // Whole: no item is optional.
    const least = (min: number): number => (whole ? Infinity : min);
    alternatives.add(sequence([...s].map((ch) => spellings(ch, named)), least(MIN_PREFIX)));
    startWith([...s][0] as string, true);
    if (s.startsWith(' ')) starts.add('\\+');
    for (const form of jsonForms(s)) {
      const chars = [...form];
      // A piece of the secret, from each 8-character boundary after the first (and the last 8).
      for (const i of pieceStarts(form, whole).slice(1)) {
        alternatives.add(sequence(chars.slice(i).map(anyCase), MIN_PREFIX));
        startWith(chars[i] as string, true);
      }
      const bytes = [...utf8(form)];
      alternatives.add(sequence(bytes.map((b) => anyCase(hex(b, 2))), least(MIN_PREFIX)));
      startWith(hex(bytes[0] as number, 2).charAt(0), true);
      for (const run of base64Runs(form)) {
        if (run.length < MIN_BASE64) continue;
        const safe = urlSafe(run);
        alternatives.add(sequence([...run].map(base64Spellings), least(MIN_BASE64_PREFIX)));
        alternatives.add(sequence([...safe].map(base64Spellings), least(MIN_BASE64_PREFIX)));
        startWith(run[0] as string, false);
        startWith(safe[0] as string, false);
      }
    }
  }
  if (alternatives.size === 0) return null;
  // The look-ahead first: most positions of a text fail it at once, before the long alternation
  // is tried there. Longest first, so a secret that contains another is masked whole.
  return `(?=[\\\\%&]|${[...starts].join('|')})(?:${[...alternatives].sort((a, b) => b.length - a.length).join('|')})`;
}

/**
 * Whether a text holds one of the secrets in any spelling {@link secretPattern} knows: the cheap
 * question before walking a large answer to mask it. A text without an escape (no `\`, no `%` and
 * two hex digits, no `&` and `#` or a letter) can hold a secret only as letters in some case (a
 * space perhaps as `+`), as hex or as base64, which plain substring searches find; only the others pay for
 * the pattern.
 */
export function mentionsSecret(text: string, secrets: readonly string[], whole = false): boolean {
  return probeMentions(probeOf(secrets, whole), new LookedText(() => text));
}

/** The start of every escape {@link spellings} knows: a backslash, `%` and two hex digits, an HTML entity. */
const MAY_ESCAPE = /\\|%[0-9A-Fa-f]{2}|&[#A-Za-z]/;

function probeMentions(probe: SecretProbe, looked: LookedText): boolean {
  if (probe.long.length === 0) return false;
  const text = looked.text;
  if (!looked.mayEscape) {
    // Every `+` as a space on both sides: a space spelt either way, in any mix, is found.
    const lower = looked.folded;
    if (!probe.pieces.test(lower) && !probe.heads.test(text)) return false;
  }
  const source = probe.source();
  return source !== null && new RegExp(source, 'g').test(text);
}

/**
 * A text {@link probeMentions} looks at, made when first needed, and what its cheap test derives
 * from it (whether it may hold an escape; its lower case with `+` as a space), each made once
 * however many lists of secrets are looked for in it.
 */
class LookedText {
  #text: string | undefined;
  #mayEscape: boolean | undefined;
  #folded: string | undefined;
  constructor(private readonly make: () => string) {}
  get text(): string {
    return (this.#text ??= this.make());
  }
  /** A search per character first: the pattern is several times slower over a long text without any. */
  get mayEscape(): boolean {
    const text = this.text;
    return (this.#mayEscape ??= (text.indexOf('\\') >= 0 || text.indexOf('%') >= 0 || text.indexOf('&') >= 0) && MAY_ESCAPE.test(text));
  }
  get folded(): string {
    if (this.#folded === undefined) {
      const lower = this.text.toLowerCase();
      this.#folded = lower.includes('+') ? lower.replaceAll('+', ' ') : lower;
    }
    return this.#folded;
  }
}

/**
 * {@link maskSecrets} for an answer parsed from JSON: the value itself when none of its strings
 * mentions a secret, which is what masking would copy unchanged. The strings are tested decoded
 * (JSON's escapes gone, so nearly all take the cheap test), joined by NUL: a string that holds a
 * secret makes the joined text hold it; a mention across two strings only costs the masking walk.
 */
export function maskMentionedSecrets<T>(value: T, secrets: readonly string[], whole = false): T {
  return probeMentions(probeOf(secrets, whole), new LookedText(() => joinedStrings(value))) ? maskSecrets(value, secrets, whole) : value;
}

/**
 * {@link maskMentionedSecrets} of an answer for the secrets its call sent (`sent`, masked in every
 * piece) and then for the site's other secrets (`unsent`, masked whole): the same value, with the
 * answer's strings gathered and looked at once for both lists rather than once per list.
 */
export function maskAnswerSecrets<T>(value: T, sent: readonly string[], unsent: readonly string[]): T {
  const sentProbe = probeOf(sent, false);
  const unsentProbe = probeOf(unsent, true);
  if (sentProbe.long.length === 0 && unsentProbe.long.length === 0) return value;
  const looked = new LookedText(() => joinedStrings(value));
  // Masked for what was sent: the site's secrets are looked for in what that masking left.
  if (probeMentions(sentProbe, looked)) return maskMentionedSecrets(maskSecrets(value, sent), unsent, true);
  return probeMentions(unsentProbe, looked) ? maskSecrets(value, unsent, true) : value;
}

/**
 * Every string of a value at any depth (not its field names) long enough to hold a secret in any
 * spelling (a match is {@link MIN_SECRET} characters or more, inside one string), joined by NUL.
 * Iterative: a hostile depth cannot overflow the stack. A parsed answer is a tree, walked without
 * remembering what it has seen (a set of every object was most of what the look allocated); past
 * {@link TREE_WALK_BOUND} objects (a value with a cycle, or sharing objects over and over) it is
 * walked again remembering them.
 */
function joinedStrings(value: unknown): string {
  return stringsOf(value, undefined) ?? (stringsOf(value, new WeakSet()) as string);
}

const TREE_WALK_BOUND = 1_000_000;

/** {@link joinedStrings}, remembering the objects seen in `seen`, or without (undefined past the bound). */
function stringsOf(value: unknown, seen: WeakSet<object> | undefined): string | undefined {
  const strings: string[] = [];
  const stack: object[] = [];
  if (typeof value === 'string') return value.length >= MIN_SECRET ? value : '';
  if (typeof value === 'object' && value !== null) stack.push(value);
  let walked = 0;
  while (stack.length) {
    const v = stack.pop() as object;
    if (seen) {
      if (seen.has(v)) continue;
      seen.add(v);
    } else if (++walked > TREE_WALK_BOUND) return undefined;
    if (Array.isArray(v)) {
      for (const item of v as unknown[]) {
        if (typeof item === 'string') {
          if (item.length >= MIN_SECRET) strings.push(item);
        } else if (typeof item === 'object' && item !== null) stack.push(item);
      }
      continue;
    }
    for (const k in v) {
      if (!Object.hasOwn(v, k)) continue;
      const item = (v as Record<string, unknown>)[k];
      if (typeof item === 'string') {
        if (item.length >= MIN_SECRET) strings.push(item);
      } else if (typeof item === 'object' && item !== null) stack.push(item);
    }
  }
  return strings.join('\u0000');
}

/**
 * Where the runs of a secret that {@link mentionsSecret} looks for start, in code points: 0, every
 * 8-character boundary with 8 characters after it, and the last 8 (just 0 for a secret of 8 or
 * fewer, or for a secret masked only whole). Any prefix or suffix of 8 characters or more, and any
 * piece of 15 or more, holds one.
 */
function pieceStarts(form: string, whole: boolean): number[] {
  const n = [...form].length;
  const starts = new Set([0]);
  if (whole) return [...starts];
  for (let i = MIN_PREFIX; i + MIN_PREFIX <= n; i += MIN_PREFIX) starts.add(i);
  if (n > MIN_PREFIX) starts.add(n - MIN_PREFIX);
  return [...starts];
}

/** Hex of bytes (upper case; {@link probeOf} lower-cases every piece). */
function hexOf(bytes: Uint8Array): string {
  return [...bytes].map((b) => hex(b, 2)).join('');
}

/** A secret as it is and as JSON writes it inside a string, each once. */
function jsonForms(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1)])];
}

/** Base64 text in its URL-safe alphabet. */
function urlSafe(base64Text: string): string {
  return base64Text.replace(/\+/g, '-').replace(/\//g, '_');
}

/** The first characters of a base64 run that any masked echo of it starts with, standard and URL-safe. */
function base64Heads(run: string): string[] {
  const head = run.slice(0, MIN_BASE64_PREFIX);
  return [head, urlSafe(head)];
}

/** The items in order; past the first `min` (all of them when fewer), each further one optional. */
function sequence(items: readonly string[], min: number): string {
  if (items.length <= min) return items.join('');
  let tail = '';
  for (let i = items.length - 1; i >= min; i--) tail = `(?:${items[i]}${tail})?`;
  return items.slice(0, min).join('') + tail;
}

/**
 * A backslash as JSON writes it before an escaped character, itself possibly `\u005C`, URL-encoded
 * or an HTML entity when the JSON text was encoded again.
 */
const BACKSLASH = '(?:\\\\(?:u005[cC])?|%(?:25){0,2}5[cC]|&#0{0,6}92;|&#[xX]0{0,6}5[cC];)';
const AMP = '&(?:[aA][mM][pP];){0,2}';

/** Every way one character (a code point) may be written in echoed text, as a regular expression. */
function spellings(ch: string, named: ReadonlyMap<number, readonly string[]>): string {
  const cp = ch.codePointAt(0) as number;
  const plain = new Set<string>();
  plain.add(anyCase(ch));
  plain.add([...utf8(ch)].map((b) => `%(?:25){0,2}${anyCase(hex(b, 2))}`).join(''));
  if (ch === ' ') plain.add('\\+');
  plain.add(`${AMP}#0{0,6}${cp};`);
  plain.add(`${AMP}#[xX]0{0,6}${anyCase(cp.toString(16))};`);
  for (const name of named.get(cp) ?? []) plain.add(`${AMP}${anyCase(name)};`);
  const escaped = [[...Array(ch.length).keys()].map((i) => `u${anyCase(hex(ch.charCodeAt(i), 4))}`).join(BACKSLASH), [...utf8(ch)].map((b) => `[xX]${anyCase(hex(b, 2))}`).join(`${BACKSLASH}{1,7}`)];
  const short = JSON_SHORT[ch];
  if (short) escaped.push(short);
  // Plain or behind JSON's escaping backslashes (up to three levels of nesting), or as a JSON escape.
  return `(?:${BACKSLASH}{0,7}(?:${[...plain].join('|')})|${BACKSLASH}{1,7}(?:${escaped.join('|')}))`;
}

/** Every way one base64 character may be written: as is, or URL- or JSON-escaped when it is not a letter or digit. */
function base64Spellings(ch: string): string {
  if (/[A-Za-z0-9]/.test(ch)) return ch;
  const code = anyCase(hex(ch.charCodeAt(0), 2));
  return `(?:${BACKSLASH}{0,7}(?:${escapeRegExp(ch)}|%(?:25){0,2}${code})|${BACKSLASH}{1,7}u00${code})`;
}

/**
 * The base64 text of a secret wherever it sits in an encoded body: for each of the three byte
 * offsets, the characters that depend on the secret's bytes alone.
 */
function base64Runs(secret: string): string[] {
  const bytes = utf8(secret);
  const runs: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const text = base64(padded);
    runs.push(text.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6)));
  }
  return runs;
}

/** UTF-8 bytes of a text (a lone surrogate as U+FFFD, as TextEncoder writes it); `app/` has neither TextEncoder's types nor Buffer. */
function utf8(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    let cp = ch.codePointAt(0) as number;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return Uint8Array.from(out);
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 without padding; here rather than Buffer or btoa so `app/` stays free of Node and DOM. */
function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.ceil(((Math.min(3, bytes.length - i)) * 8) / 6);
    for (let j = 0; j < chars; j++) out += BASE64[(n >> (18 - 6 * j)) & 63];
  }
  return out;
}

const JSON_SHORT: Readonly<Record<string, string>> = { '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };
/**
 * HTML's named character references by code point: HTML 5's for ASCII punctuation (`&sol;`, as
 * PHP's `htmlentities(…, ENT_HTML5)` writes them) and HTML 4's for Latin-1, Greek and typography
 * (`&eacute;`, as Java's `escapeHtml4` writes them). Names are matched in any case: a secret is.
 */
function namedReferences(): Map<number, readonly string[]> {
  // Built when a pattern is (rather than once per module), so the test of each name can fail.
  return new Map([
    ...Object.entries({
      '!': 'excl', '"': 'quot', '#': 'num', $: 'dollar', '%': 'percnt', '&': 'amp', "'": 'apos', '(': 'lpar', ')': 'rpar', '*': 'ast midast', '+': 'plus',
      ',': 'comma', '.': 'period', '/': 'sol', ':': 'colon', ';': 'semi', '<': 'lt', '=': 'equals', '>': 'gt', '?': 'quest', '@': 'commat', '[': 'lsqb lbrack',
      '\\': 'bsol', ']': 'rsqb rbrack', '^': 'Hat', _: 'lowbar UnderBar', '`': 'grave DiacriticalGrave', '{': 'lcub lbrace', '|': 'verbar vert VerticalLine', '}': 'rcub rbrace',
      '\t': 'Tab', '\n': 'NewLine',
    }).map(([ch, names]): [number, string[]] => [ch.codePointAt(0) as number, names.split(' ')]),
    ...namedRun(0xa0, 'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml'),
    ...namedRun(0x391, 'Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho - Sigma Tau Upsilon Phi Chi Psi Omega'),
    ...namedRun(0x3b1, 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega'),
    ...namedRun(0x2013, 'ndash mdash - - - lsquo rsquo sbquo - ldquo rdquo bdquo - dagger Dagger bull - - - hellip'),
    ...Object.entries({ OElig: 0x152, oelig: 0x153, Scaron: 0x160, scaron: 0x161, Yuml: 0x178, fnof: 0x192, circ: 0x2c6, tilde: 0x2dc, permil: 0x2030, lsaquo: 0x2039, rsaquo: 0x203a, euro: 0x20ac, trade: 0x2122 }).map(
      ([name, cp]): [number, string[]] => [cp, [name]],
    ),
  ]);
}

/** Names of consecutive code points from `first` (`-`: a code point without one). */
function namedRun(first: number, names: string): Array<[number, string[]]> {
  return names.split(' ').flatMap((name, i): Array<[number, string[]]> => (name === '-' ? [] : [[first + i, [name]]]));
}

function hex(n: number, width: number): string {
  return n.toString(16).toUpperCase().padStart(width, '0');
}

/** A regular expression for the text in any letter case (lower and upper case of each character). */
function anyCase(text: string): string {
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    out += lower !== upper && [...lower].length === 1 && [...upper].length === 1 ? `[${escapeRegExp(lower)}${escapeRegExp(upper)}]` : escapeRegExp(ch);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
