import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { svelte2tsx } from 'svelte2tsx';
import ts from 'typescript';

/** A `'METHOD /path'` literal: how the renderer names an operation of the catalog. */
export const OPERATION_LITERAL = /^(GET|POST|PUT|PATCH|DELETE) \//;

/** One operation literal of the renderer and what the compiler makes of it where it stands. */
export interface LiteralFinding {
  /** Source file, relative to the repository (`renderer/…`). */
  readonly file: string;
  /** Line in the source for `.ts` files; in the component's generated TypeScript for `.svelte`. */
  readonly line: number;
  readonly text: string;
  /** The type the literal's position expects, as the compiler prints it; undefined when none. */
  readonly expected: string | undefined;
  /** The literal itself type-checks there. */
  readonly accepted: boolean;
  /** The misspellings that would type-check there (each should be refused: this should be empty). */
  readonly misspellingsAccepted: readonly string[];
}

const require = createRequire(import.meta.url);

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourcesUnder(path);
    return /\.(ts|svelte)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Misspellings of an operation key, each one character away from it: the last character changed,
 * one character of the path dropped, one added. Those that are themselves keys are left out.
 */
export function misspellingsOf(key: string, keys: ReadonlySet<string>): string[] {
  const slash = key.indexOf('/');
  const last = key.at(-1) ?? '';
  const candidates = [
    key.slice(0, -1) + (last === 'x' ? 'y' : 'x'),
    key.slice(0, slash + 1) + key.slice(slash + 2),
    `${key}s`,
  ];
  return [...new Set(candidates)].filter((c) => !keys.has(c));
}

/**
 * Type-checks the renderer (or another folder of `.ts` and `.svelte` files: its `.ts` files, and its components through svelte2tsx, which is how
 * svelte-check reads them) and, for every operation literal, asks the compiler what type its
 * position expects and whether each misspelling of it would be accepted there.
 */
export function checkOperationLiterals(root: string, operationKeys: ReadonlySet<string>, dir = 'renderer'): LiteralFinding[] {
  const files = sourcesUnder(join(root, dir));
  const svelteVersion = (require('svelte/package.json') as { version: string }).version;
  // A component is read as `X.svelte.ts`: the name a `./X.svelte` import resolves to under bundler
  // resolution. Real `*.svelte.ts` modules (rune stores) have no `.svelte` twin, so names never clash.
  const generated = new Map<string, string>();
  for (const file of files.filter((f) => f.endsWith('.svelte'))) {
    const { code } = svelte2tsx(readFileSync(file, 'utf8'), { filename: file, isTsFile: true, mode: 'ts', version: svelteVersion });
    generated.set(`${file}.ts`, code);
  }
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['svelte', 'vite/client'],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    allowImportingTsExtensions: true,
  };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => generated.has(f) || fileExists.call(host, f);
  host.readFile = (f) => generated.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, onError, create) => {
    const code = generated.get(f);
    return code !== undefined ? ts.createSourceFile(f, code, lang, true, ts.ScriptKind.TS) : getSourceFile.call(host, f, lang, onError, create);
  };
  const shims = ['svelte2tsx/svelte-shims-v4.d.ts', 'svelte2tsx/svelte-jsx-v4.d.ts'].map((s) => require.resolve(s));
  const roots = files.map((f) => (f.endsWith('.svelte') ? `${f}.ts` : f));
  const program = ts.createProgram({ rootNames: [...shims, ...roots], options, host });
  const checker = program.getTypeChecker();

  const findings: LiteralFinding[] = [];
  for (const rootName of roots) {
    const source = program.getSourceFile(rootName);
    if (!source) throw new Error(`not in the program: ${rootName}`);
    const file = relative(root, generated.has(rootName) ? rootName.slice(0, -3) : rootName);
    const visit = (node: ts.Node): void => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && OPERATION_LITERAL.test(node.text)) {
        const expected = expectedTypeAt(checker, node);
        const accepts = (text: string): boolean => expected !== undefined && checker.isTypeAssignableTo(checker.getStringLiteralType(text), expected);
        findings.push({
          file,
          line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
          text: node.text,
          expected: expected && checker.typeToString(expected),
          accepted: accepts(node.text),
          misspellingsAccepted: misspellingsOf(node.text, operationKeys).filter(accepts),
        });
      } else if (ts.isTemplateExpression(node) && OPERATION_LITERAL.test(node.head.text)) {
        // A key built from parts escapes the compiler altogether: report it as unchecked.
        findings.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, text: node.getText(source), expected: undefined, accepted: false, misspellingsAccepted: [] });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}

/**
 * The type a literal must fit where it stands: its contextual type; in a comparison (`===`, `case`)
 * the other side's type (the compiler refuses to compare types with no overlap); in a type, the
 * constraint of the type parameter it is an argument of (climbing unions). Undefined where nothing
 * constrains it, such as a type alias of literals that nothing checks against the catalog.
 */
function expectedTypeAt(checker: ts.TypeChecker, node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral): ts.Type | undefined {
  const parent = node.parent;
  if (ts.isLiteralTypeNode(parent)) {
    let typeNode: ts.Node = parent;
    while (ts.isUnionTypeNode(typeNode.parent) || ts.isParenthesizedTypeNode(typeNode.parent)) typeNode = typeNode.parent;
    const ref = typeNode.parent;
    if (!ts.isTypeReferenceNode(ref) && !ts.isExpressionWithTypeArguments(ref)) return undefined;
    const index = ref.typeArguments?.indexOf(typeNode as ts.TypeNode) ?? -1;
    const symbol = checker.getSymbolAtLocation(ts.isTypeReferenceNode(ref) ? ref.typeName : ref.expression);
    const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declaration = target?.declarations?.find((d) => 'typeParameters' in d) as { typeParameters?: ts.NodeArray<ts.TypeParameterDeclaration> } | undefined;
    const constraint = declaration?.typeParameters?.[index]?.constraint;
    return constraint && checker.getTypeFromTypeNode(constraint);
  }
  if (ts.isBinaryExpression(parent) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(parent.operatorToken.kind)) {
    return checker.getTypeAtLocation(parent.left === node ? parent.right : parent.left);
  }
  if (ts.isCaseClause(parent)) return checker.getTypeAtLocation(parent.parent.parent.expression);
  return checker.getContextualType(node);
}

/**
 * The operation literals a component's source writes outside comments: what its generated form must
 * hold as many of, so that no literal of the markup escapes the check.
 */
export function literalsInComponent(path: string): string[] {
  const code = readFileSync(path, 'utf8')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1');
  return [...code.matchAll(/(['"`])((?:GET|POST|PUT|PATCH|DELETE) \/[^'"`$]*)\1/g)].map((m) => m[2] ?? '');
}
