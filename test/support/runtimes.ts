import { afterEach } from 'vitest';
import { openRuntime, type Runtime, type RuntimeOptions } from '../../main/runtime.js';

/**
 * Opens runtimes for one test file, each on the data directory given, with secrets in memory and no
 * search index (`extra` adds or overrides options). Every runtime opened is closed after each test.
 */
export function useRuntimes(): (dataDir: string, extra?: Partial<RuntimeOptions>) => Promise<Runtime> {
  const opened: Runtime[] = [];
  afterEach(async () => {
    for (const rt of opened.splice(0)) await rt.close();
  });
  return async (dataDir, extra = {}) => {
    const rt = await openRuntime({ dataDir, memorySecrets: true, searchIndex: false, ...extra });
    opened.push(rt);
    return rt;
  };
}

/** Adds the sites Paris (id `paris`) and Lyon (id `lyon`): two sites, for windows scoped to one of them. */
export async function addParisAndLyon(rt: Runtime): Promise<void> {
  await rt.sites.add({ id: 'paris', name: 'Paris', baseUrl: 'https://paris.example', username: 'admin' });
  await rt.sites.add({ id: 'lyon', name: 'Lyon', baseUrl: 'https://lyon.example', username: 'admin' });
}
