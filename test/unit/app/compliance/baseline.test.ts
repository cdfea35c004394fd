import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baselineSchema } from '../../../../app/compliance/baseline.js';
import { baselineJsonSchema } from '../../../../app/compliance/json-schema.js';
import { BaselineError, parseBaseline } from '../../../../app/compliance/parse.js';
import { SECURE_BASELINE } from '../../../../app/compliance/secure-baseline.js';

const minimal = (checks: string): string => `{
  "format": 1,
  "name": "ours",
  "version": "2",
  "maxAgeHours": 24,
  "checks": [
${checks}
  ]
}
`;
const TWO_STEP = `    {
      "id": "two-step",
      "title": "Two-step",
      "rationale": "Because.",
      "severity": "high",
      "rule": { "read": "GET /users/list", "items": "Data", "every": { "field": "TwoStepAuthenticationEnabled", "equals": true } }
    }`;

function problemsOf(text: string): BaselineError['problems'] {
  try {
    parseBaseline(text, 'ours.json');
  } catch (err) {
    expect(err).toBeInstanceOf(BaselineError);
    return (err as BaselineError).problems;
  }
  throw new Error('the baseline was accepted');
}

describe('baseline files', () => {
  it('reads a JSON baseline and the same baseline written in YAML', () => {
    const json = parseBaseline(minimal(TWO_STEP));
    const yaml = parseBaseline(`format: 1
name: ours
version: "2"
maxAgeHours: 24
checks:
  - id: two-step
    title: Two-step
    rationale: Because.
    severity: high
    rule:
      read: GET /users/list
      items: Data
      every: { field: TwoStepAuthenticationEnabled, equals: true }
`);
    expect(yaml).toEqual(json);
    expect(json.checks[0]?.rule.read).toBe('GET /users/list');
  });

  it('refuses an unknown field with its line', () => {
    const text = minimal(TWO_STEP.replace('"severity": "high",', '"severity": "high",\n      "owner": "me",'));
    const problems = problemsOf(text);
    expect(problems).toEqual([{ line: 12, path: 'checks[0]', message: 'unknown field "owner"' }]);
  });

  it('refuses a value outside the vocabulary with the line of the value and the reason', () => {
    const problems = problemsOf(minimal(TWO_STEP.replace('"equals": true', '"greaterThan": 1')));
    expect(problems.map((p) => p.line)).toContain(12);
    expect(problems.map((p) => p.message).join('\n')).toMatch(/unknown field "greaterThan"/);
    const op = problemsOf(minimal(TWO_STEP.replace('GET /users/list', 'GET /users/secrets')));
    expect(op[0]).toMatchObject({ line: 12, path: 'checks[0].rule.read' });
  });

  it('refuses a rule with two quantifiers, a condition with two operators, a bad pattern and a repeated id', () => {
    const two = problemsOf(minimal(TWO_STEP.replace('"every":', '"some": { "field": "Name", "present": true }, "every":')));
    expect(two[0]?.message).toMatch(/exactly one of every, some, none/);
    const ops = problemsOf(minimal(TWO_STEP.replace('"equals": true', '"equals": true, "present": true')));
    expect(ops[0]?.message).toMatch(/exactly one of equals/);
    const re = problemsOf(minimal(TWO_STEP.replace('"equals": true', '"matches": "(("')));
    expect(re[0]?.message).toMatch(/regular expression/);
    const twice = problemsOf(minimal(`${TWO_STEP},\n${TWO_STEP}`));
    expect(twice[0]).toMatchObject({ path: 'checks[1].id', message: 'check id "two-step" is used twice' });
  });

  it('refuses text that is not JSON or YAML, and a repeated key, with the line', () => {
    const broken = problemsOf('{\n  "format": 1,\n  "name": "x",\n  "name": "y"\n}\n');
    expect(broken[0]?.line).toBe(4);
    expect(broken[0]?.message).toMatch(/unique/i);
    const unclosed = problemsOf('{\n  "format": 1,\n');
    expect(unclosed[0]?.line).toBeGreaterThan(0);
  });

  it('names a missing field at the object that lacks it', () => {
    const problems = problemsOf(minimal(TWO_STEP.replace('"rationale": "Because.",', '')));
    expect(problems[0]).toMatchObject({ line: 7, path: 'checks[0].rationale' });
  });

  it('ships a secure baseline that passes its own schema, every check with a rationale', () => {
    expect(baselineSchema.parse(SECURE_BASELINE)).toEqual(SECURE_BASELINE);
    expect(parseBaseline(JSON.stringify(SECURE_BASELINE, null, 2))).toEqual(SECURE_BASELINE);
    for (const c of SECURE_BASELINE.checks) expect(c.rationale.length, c.id).toBeGreaterThan(60);
  });

  it('publishes the JSON Schema the zod schema describes (npx tsx scripts/write-baseline-schema.ts writes it)', () => {
    const file = JSON.parse(readFileSync(new URL('../../../../app/compliance/baseline.schema.json', import.meta.url), 'utf8')) as unknown;
    expect(file).toEqual(baselineJsonSchema());
  });
});

describe('a check\u2019s fix', () => {
  const withFix = (fix: string): string => minimal(TWO_STEP.replace('"severity": "high",', `"severity": "high",\n      "fix": ${fix},`));

  it('accepts one write of the catalog with its body fields', () => {
    const b = parseBaseline(withFix('{ "op": "PUT /nodes/support/tunnel/disable", "body": { "Node": "{item}" }, "title": "Close it" }'));
    expect(b.checks[0]?.fix).toEqual({ op: 'PUT /nodes/support/tunnel/disable', body: { Node: '{item}' }, title: 'Close it' });
  });

  it('refuses a read, a destructive write and a body field the operation does not have, by line', () => {
    expect(problemsOf(withFix('{ "op": "GET /users/list", "body": {}, "title": "x" }'))[0]?.path).toBe('checks[0].fix.op');
    expect(problemsOf(withFix('{ "op": "DELETE /users/delete", "body": {}, "title": "x" }'))[0]?.path).toBe('checks[0].fix.op');
    expect(problemsOf(withFix('{ "op": "PUT /nodes/support/tunnel/disable", "body": { "Nod": "{item}" }, "title": "x" }'))).toEqual([
      { line: 12, path: 'checks[0].fix.body.Nod', message: 'PUT /nodes/support/tunnel/disable has no body field "Nod"' },
    ]);
  });
});
