import { OPERATIONS, typeName, type Operation, type ResponseSpec } from '../../../app/catalog/index.js';
import { printJson, type CliIo } from '../io.js';

/** `fleetdeck operations [--json]`: the catalog, as a table or as JSON. */
export function operationsCommand(io: CliIo, json: boolean): number {
  if (json) {
    printJson(io, OPERATIONS.map(describeOperation));
    return 0;
  }
  let group = '';
  for (const op of OPERATIONS) {
    if (op.group !== group) {
      group = op.group;
      io.stdout(`\n${group}\n`);
    }
    const flags = [op.writes ? 'writes' : 'read', op.destructive ? 'destructive' : ''].filter(Boolean).join(', ');
    io.stdout(`  ${op.method.padEnd(6)} ${op.path.padEnd(48)} ${op.summary} [${flags}]\n`);
  }
  io.stdout(`\n${OPERATIONS.length} operations\n`);
  return 0;
}

export function describeOperation(op: Operation): Record<string, unknown> {
  return {
    method: op.method,
    path: op.path,
    group: op.group,
    summary: op.summary,
    query: op.query.map((f) => ({ name: f.name, type: typeName(f.type) })),
    headers: op.headers.map((f) => ({ name: f.name, type: typeName(f.type) })),
    body: op.body.map((f) => ({ name: f.name, type: typeName(f.type) })),
    response: responseName(op.response),
    writes: op.writes,
    destructive: op.destructive,
    secrets: op.secrets,
  };
}

export function responseName(r: ResponseSpec): string {
  switch (r.kind) {
    case 'string':
      return 'string';
    case 'list':
      return `{Data:[${r.item}]}`;
    case 'object':
      return r.type;
    case 'empty':
      return 'empty';
    case 'unknown':
      return 'unknown';
  }
}
