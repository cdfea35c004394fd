// Writes app/policy/policy.schema.json from the zod schema (a unit test keeps them equal).
import { writeFileSync } from 'node:fs';
import { policyJsonSchema } from '../app/policy/machine-policy.js';

writeFileSync(new URL('../app/policy/policy.schema.json', import.meta.url), `${JSON.stringify(policyJsonSchema(), null, 2)}\n`);
