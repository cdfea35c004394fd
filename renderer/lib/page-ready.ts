/**
 * The entry script is `async` (renderer/index.html): it runs as soon as it has arrived, so the first
 * reads leave without waiting for the stylesheet (a deferred or plain module script waits for every
 * script-blocking stylesheet) or for the rest of the document (issue 17). The frame, though, is
 * mounted only where it can be laid out as it will be shown: once the document has its `#app`
 * element and every stylesheet it links is applied, or the first frame's measurements (the tree's and
 * the overview's row heights, the viewport of a virtual list) would be taken on unstyled elements.
 * Resolves with the `#app` element; rejects when the document has none.
 */
export async function pageReady(doc: Document = document): Promise<HTMLElement> {
  if (doc.readyState === 'loading' && !doc.getElementById('app')) {
    await new Promise<void>((resolve) => doc.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
  }
  const target = doc.getElementById('app');
  if (!target) throw new Error('index.html has no #app element');
  await Promise.all([...doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map(sheetApplied));
  return target;
}

/** Resolves once the linked stylesheet is loaded, or failed to (a window without its styles still works). */
function sheetApplied(link: HTMLLinkElement): Promise<void> {
  if (link.sheet) return Promise.resolve();
  return new Promise<void>((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
  });
}
