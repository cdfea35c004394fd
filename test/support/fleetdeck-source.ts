// The fleetdeck CLI run from the TypeScript sources (with `node --import tsx`), so a test can start
// and kill it as a process without a prior build.
import { main } from '../../main/cli/main.js';

await main();
