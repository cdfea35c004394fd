/**
 * The locale objects the window's first frame builds (renderer/lib/locale-formats.ts, lib/format.ts,
 * lib/table.ts), built once here, on a thread of the window's own process, and the worker closed:
 * ICU keeps the locale data it loads for them (collation tailoring, number symbols, date patterns) in
 * caches of the process, shared by every thread, so the window's thread then builds its own in well
 * under a millisecond instead of 15-40 ms (issue 17). Nothing is sent back. The number format first:
 * the frame's mount uses it; the collators are first used with the answers.
 */
new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 }).format(1234.5);
new Intl.Collator().compare('a', 'b');
new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }).compare('a1', 'a2');
new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(0);
close();
