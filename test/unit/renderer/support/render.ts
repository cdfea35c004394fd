import { flushSync, mount, unmount, type Component } from 'svelte';

/** A component mounted by {@link renderComponent}. */
export interface Rendered {
  /** The element it is mounted in, attached to the document. */
  target: HTMLElement;
  /** Unmounts it now and removes its element (tests that check what happens when a view goes away). */
  unmount(): void;
}

const mounted = new Set<Rendered>();

/**
 * Mounts a component into a fresh element of the document and flushes its first render. Everything
 * still mounted is unmounted and removed after each test ({@link cleanup}, registered in setup.ts),
 * so no test file keeps its own mount/unmount bookkeeping.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Svelte's own Component default: props of any component
export function renderComponent<Props extends Record<string, any>>(component: Component<Props>, props: Props = {} as Props): Rendered {
  const target = document.createElement('div');
  document.body.append(target);
  const app = mount(component, { target, props });
  flushSync();
  const rendered: Rendered = {
    target,
    unmount: () => {
      if (!mounted.delete(rendered)) return;
      void unmount(app);
      target.remove();
    },
  };
  mounted.add(rendered);
  return rendered;
}

/** Unmounts and removes everything {@link renderComponent} mounted. */
export function cleanup(): void {
  for (const r of [...mounted]) r.unmount();
}

/** Types `text` into a field as a user does: an input event, then leaving the field. */
export function type(el: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  el.value = text;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new FocusEvent('blur'));
  flushSync();
}

/** Picks `value` in a select as a user does. */
export function choose(el: HTMLSelectElement, value: string): void {
  el.value = value;
  el.dispatchEvent(new Event('change', { bubbles: true }));
  flushSync();
}
