import { z } from 'zod';
import { baselineSchema } from './baseline.js';

/**
 * The published JSON Schema of a baseline file (`app/compliance/baseline.schema.json`), generated
 * from the zod schema so the two cannot drift (a test compares the file with this; write it again
 * with `npx tsx scripts/write-baseline-schema.ts`). Rules zod checks in code (exactly one operator
 * or quantifier, unique check ids, regular expressions that compile) are stated in the
 * descriptions, since JSON Schema cannot say them all.
 */
export function baselineJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://fleetdeck.example/schemas/compliance-baseline-1.json',
    title: 'Fleetdeck compliance baseline (format 1)',
    description:
      'A versioned list of checks over the answers Fleetdeck caches. A condition has exactly one operator, a rule exactly one of every/some/none; check ids are unique; patterns are case-insensitive regular expressions.',
    ...z.toJSONSchema(baselineSchema, { target: 'draft-2020-12', io: 'input' }),
  };
}
