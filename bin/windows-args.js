// The Windows `fleetdeck.cmd` hands the runtime its command line untouched, in a file, rather than
// through `%*` on the runtime's command line: cmd parses a line again after putting `%*` into it,
// so `&`, `|`, `<`, `>` run as commands and `^` vanishes. cmd writes the line, unparsed, by echoing
// a `rem` command (the `rem` is never parsed for those characters); this splits it as every
// Windows program splits its command line (the Microsoft C runtime's rules).

/** The marker the .cmd echoes before the arguments: `rem * #<arguments>#`. */
const MARKER = 'rem * #';

/**
 * The raw argument text from the file the .cmd wrote: what follows the marker on its line, up to
 * the last `#` (cmd echoes a space after it).
 * @param {string} text the file's content
 * @returns {string | undefined} undefined when the file holds no marker line
 */
export function rawArgsFromEcho(text) {
  const line = text.split(/\r?\n/).find((l) => l.startsWith(MARKER));
  if (line === undefined) return undefined;
  const end = line.lastIndexOf('#');
  return end >= MARKER.length ? line.slice(MARKER.length, end) : undefined;
}

/**
 * Splits a command tail into arguments by the Microsoft C runtime's rules (those of
 * CommandLineToArgvW for everything after the program name): spaces and tabs separate arguments
 * outside quotes; `"` toggles quoting; `""` inside quotes is one literal `"`; 2n backslashes before
 * a `"` are n backslashes and the quote toggles; 2n+1 are n and a literal `"`; other backslashes are
 * themselves.
 * @param {string} tail
 * @returns {string[]}
 */
export function splitWindowsArgs(tail) {
  const args = [];
  let current = '';
  let started = false;
  let quoted = false;
  for (let i = 0; i < tail.length; i++) {
    const c = tail[i];
    if (c === '\\') {
      let n = 0;
      while (tail[i + n] === '\\') n++;
      if (tail[i + n] === '"') {
        current += '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) {
          current += '"';
          i += n;
        } else i += n - 1; // the quote itself is read next, as a quote
      } else {
        current += '\\'.repeat(n);
        i += n - 1;
      }
      started = true;
    } else if (c === '"') {
      if (quoted && tail[i + 1] === '"') {
        current += '"';
        i++;
      } else quoted = !quoted;
      started = true;
    } else if ((c === ' ' || c === '\t') && !quoted) {
      if (started) args.push(current);
      current = '';
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  if (started) args.push(current);
  return args;
}
