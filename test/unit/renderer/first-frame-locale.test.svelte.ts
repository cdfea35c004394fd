import { flushSync } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import App from '../../../renderer/App.svelte';
import { setApi } from '../../../renderer/lib/api.js';
import { fakeApi, settle, site, status } from './support/fake-api.js';
import { renderComponent } from './support/render.js';

// Its own file: the locale objects are made once per module graph, and each test file has its own.
const { Collator, NumberFormat } = Intl;
afterEach(() => {
  Intl.Collator = Collator;
  Intl.NumberFormat = NumberFormat;
});

/**
 * The first Intl object of a page loads the locale data (7-20 ms in Chromium): the frame orders the
 * fleet's names with one collator and writes its figures with one number format, each built once
 * however many names and figures it shows (the entry builds them while the frame waits for main).
 */
describe('the first frame and the locale data', () => {
  it('shows the fleet in the collator order, with one collator and one number format for the whole frame', async () => {
    const built = { collators: 0, numbers: 0 };
    Intl.Collator = class extends Collator {
      constructor(...args: ConstructorParameters<typeof Collator>) {
        super(...args);
        built.collators++;
      }
    } as typeof Intl.Collator;
    Intl.NumberFormat = class extends NumberFormat {
      constructor(...args: ConstructorParameters<typeof NumberFormat>) {
        super(...args);
        built.numbers++;
      }
    } as typeof Intl.NumberFormat;
    const names = ['beta-10', 'Beta-2', 'beta-2', 'alpha_1', 'alpha-1', 'Alpha1', 'alpha 1', 'zeta.9', 'a'];
    setApi(fakeApi({ sites: [site('s2', 'West'), site('s1', 'east')], statuses: names.map((n, i) => status(i % 2 ? 's1' : 's2', n, 'ok')) }).api);
    const { target } = renderComponent(App);
    const shown = (): string[] => [...target.querySelectorAll('[data-testid^="tree-system-"]')].map((e) => e.getAttribute('data-testid')!);
    // The answers come in promises only (no timer): the fleet is shown before any frame is painted.
    for (let i = 0; i < 100 && shown().length === 0; i++) {
      await Promise.resolve();
      flushSync();
    }
    expect(shown()).toHaveLength(names.length);

    const order = new Collator();
    const bySite = (id: string): string[] => names.filter((_, i) => (i % 2 ? 's1' : 's2') === id).sort(order.compare);
    // Sites by name ("east" before "West"), each one's systems by name: as the collator orders them.
    expect(shown()).toEqual([...bySite('s1').map((n) => `tree-system-s1-${n}`), ...bySite('s2').map((n) => `tree-system-s2-${n}`)]);
    expect(target.querySelector('[data-testid="fleet-totals"]')?.textContent).toContain(`${names.length} systems`);

    await settle();
    expect(built).toEqual({ collators: 1, numbers: 1 });
    const again = { ...built };
    const sites = target.querySelector<HTMLSelectElement>('select[aria-label="Group systems by"]')!;
    sites.value = 'tag';
    sites.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    expect(built).toEqual(again);
  });
});
