import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import { InputError } from '../errors.js';
import { baselineSchema, type Baseline } from './baseline.js';

/** One reason a baseline file is refused: its line (1-based, 0 when unknown) and what is wrong. */
export interface BaselineProblem {
  line: number;
  /** Where in the file, as a path (`checks[2].rule.every`); empty for the file as a whole. */
  path: string;
  message: string;
}

/** A baseline file that cannot be used: every problem found, each with its line. */
export class BaselineError extends InputError {
  constructor(
    readonly file: string,
    readonly problems: readonly BaselineProblem[],
  ) {
    super(`${file}: not a usable baseline\n${problems.map((p) => `  line ${p.line}${p.path ? ` (${p.path})` : ''}: ${p.message}`).join('\n')}`);
  }
}

/**
 * Reads a baseline from its text, JSON or YAML (JSON is YAML too, so one parser gives lines for
 * both). Duplicate keys, an unknown field and a value outside the vocabulary are refused.
 * @throws BaselineError naming each problem's line and reason
 */
export function parseBaseline(text: string, file = 'baseline'): Baseline {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, schema: 'core' });
  if (doc.errors.length) {
    throw new BaselineError(
      file,
      doc.errors.map((e) => ({ line: lines.linePos(e.pos[0]).line, path: '', message: firstLine(e.message) })),
    );
  }
  const parsed = baselineSchema.safeParse(doc.toJS({ maxAliasCount: 100 }) as unknown);
  if (parsed.success) return parsed.data;
  throw new BaselineError(file, parsed.error.issues.map((issue) => problemOf(issue, doc, lines)));
}

function problemOf(issue: z.core.$ZodIssue, doc: Document, lines: LineCounter): BaselineProblem {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const offset = unknownKeys.length ? keyOffset(doc, path, unknownKeys[0] as string) : nodeOffset(doc, path);
  const message = unknownKeys.length ? `unknown field${unknownKeys.length > 1 ? 's' : ''} ${unknownKeys.map((k) => `"${k}"`).join(', ')}` : issue.message;
  return { line: offset === undefined ? 0 : lines.linePos(offset).line, path: pathText(path), message };
}

/** Start of the node at `path`, or of its nearest ancestor that exists (a missing field points at its object). */
function nodeOffset(doc: Document, path: ReadonlyArray<string | number>): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : (doc.getIn(path.slice(0, n), true) as Node | undefined);
    if (node && typeof node === 'object' && 'range' in node && node.range) return node.range[0];
  }
  return undefined;
}

function keyOffset(doc: Document, path: ReadonlyArray<string | number>, key: string): number | undefined {
  const map = path.length ? doc.getIn(path, true) : doc.contents;
  if (isMap(map)) {
    for (const item of map.items) {
      if (isPair(item) && isScalar(item.key) && item.key.value === key && item.key.range) return item.key.range[0];
    }
  }
  return nodeOffset(doc, path);
}

function pathText(path: ReadonlyArray<string | number>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function firstLine(message: string): string {
  return (message.split('\n', 1)[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}
