import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, for tests of what the app keeps in memory: what the heap holds after
 * it is what something still references. V8 hands `gc` to a context created after the flag is set,
 * so no test runner option is needed.
 */
export function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
