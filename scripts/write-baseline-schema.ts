// Writes app/compliance/baseline.schema.json from the zod schema (a unit test keeps them equal).
import { writeFileSync } from 'node:fs';
import { baselineJsonSchema } from '../app/compliance/json-schema.js';

writeFileSync(new URL('../app/compliance/baseline.schema.json', import.meta.url), `${JSON.stringify(baselineJsonSchema(), null, 2)}\n`);
