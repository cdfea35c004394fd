/**
 * Characters that change how a terminal or a line of text reads rather than what it says: C0 and
 * C1 controls (escape sequences, carriage return, bell), DEL, the Unicode line and paragraph
 * separators and the bidirectional formatting characters (embeddings, overrides, isolates and the
 * direction marks), with which a name can read as another (`"abc\u202Efdp.exe"`).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu');
/** As UNSAFE, without tab and line feed: what multi-line terminal text may not carry. */
// eslint-disable-next-line no-control-regex -- as above
const UNSAFE_IN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
/** The unsafe characters JSON.stringify leaves raw (it escapes C0 controls itself). */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
/** Tab, line feed, carriage return and the Unicode separators: what would split one field into several. */
const BREAKS = /[\t\n\r\u2028\u2029]+/gu;

/** True when the text holds a control, separator or bidirectional formatting character. */
export function hasUnsafeChars(text: string): boolean {
  return UNSAFE.test(text);
}

/**
 * One field of a terminal line (a name, a message from a system): line breaks and tabs become a
 * space, so it cannot forge another line or column; every other unsafe character is dropped.
 */
export function terminalField(text: string): string {
  return text.replace(BREAKS, ' ').replace(UNSAFE_ALL, '');
}

/** Text for a terminal that keeps its own line feeds and tabs and drops every other unsafe character. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, '');
}

/**
 * `JSON.stringify` whose output holds no unsafe character raw: JSON escapes C0 controls itself, and
 * the rest (C1, DEL, separators, bidi) can only occur inside strings, where `\uXXXX` is the same
 * value. So the data is exactly what the system sent, and the text is safe to print.
 */
export function safeJson(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  return text === undefined ? 'null' : text.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A name (a system's, which the system chose) as one word of a command line the admin may paste
 * into a POSIX shell or PowerShell: as it is when it holds only characters neither gives a meaning
 * to, else in single quotes, inside which neither expands anything (`$(…)`, backquotes, `;`). A
 * quote inside is written as both read it back: `'\\''` for a POSIX shell, `''` for PowerShell.
 * Control, separator and bidi characters are dropped first, as {@link terminalField} drops them.
 */
export function shellWord(text: string, powershell = false): string {
  const clean = terminalField(text);
  if (/^[A-Za-z0-9_.,:@%+=/-]+$/.test(clean)) return clean;
  return `'${clean.replace(/'/g, powershell ? "''" : "'\\''")}'`;
}
