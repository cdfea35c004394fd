import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../renderer/App.svelte';
import { setApi } from '../../../renderer/lib/api.js';
import { fakeApi, site, status } from './support/fake-api.js';
import { renderComponent } from './support/render.js';

describe('the first frame and the locale', () => {
  it("shows the fleet's sites and each one's systems in the default locale's order", async () => {
    const names = ['beta-10', 'Beta-2', 'beta-2', 'alpha_1', 'alpha-1', 'Alpha1', 'alpha 1', 'zeta.9', 'a', 'Ölberg', 'Olberg'];
    setApi(fakeApi({ sites: [site('s2', 'West'), site('s1', 'east')], statuses: names.map((n, i) => status(i % 2 ? 's1' : 's2', n, 'ok')) }).api);
    const { target } = renderComponent(App);
    const shown = (): string[] => [...target.querySelectorAll('[data-testid^="tree-system-"]')].map((e) => e.getAttribute('data-testid')!);
    for (let i = 0; i < 100 && shown().length === 0; i++) {
      await Promise.resolve();
      flushSync();
    }
    const order = new Intl.Collator();
    const bySite = (id: string): string[] => names.filter((_, i) => (i % 2 ? 's1' : 's2') === id).sort(order.compare);
    // Sites by name ("east" before "West"), each one's systems by name: as the collator orders them.
    expect(shown()).toEqual([...bySite('s1').map((n) => `tree-system-s1-${n}`), ...bySite('s2').map((n) => `tree-system-s2-${n}`)]);
    expect(target.querySelector('[data-testid="fleet-totals"]')?.textContent).toContain(`${names.length} systems`);
  });
});
