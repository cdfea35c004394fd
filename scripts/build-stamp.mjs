// Marks out/ as built from the current sources: `npm start` rebuilds only when a source is newer.
import { mkdirSync, writeFileSync } from 'node:fs';
mkdirSync('out', { recursive: true });
writeFileSync('out/.build-stamp', `${new Date().toISOString()}\n`);
