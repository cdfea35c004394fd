/**
 * The entry script is `async` (renderer/index.html): it runs as soon as it has arrived, so the first
 * reads leave without waiting for the stylesheet (a deferred or plain module script waits for every
 * script-blocking stylesheet) or for the rest of the document. The frame, though, is
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

/**
 * How long the frame waits for the first reads' answers before it is shown without them (ms from the
 * entry's start; renderer/frame.ts): it then says it is loading until they come, as with a slow
 * main, rather than leave the window blank. At 1,000 systems they are in ~70-100 ms after the entry
 * runs.
 */
export const FIRST_ANSWERS_WAIT_MS = 500;

/** Starts a timer; returns its cancel (or nothing, when it cannot be cancelled). */
export type SetTimer = (run: () => void, ms: number) => (() => void) | void;

const defaultTimer: SetTimer = (run, ms) => {
  const t = setTimeout(run, ms);
  return () => clearTimeout(t);
};

/**
 * Resolves when `answers` settles or `ms` have passed, whichever is first; never rejects (a failed
 * read is said by the frame, which is shown either way).
 */
export function answersOrDeadline(answers: Promise<unknown>, ms: number = FIRST_ANSWERS_WAIT_MS, setTimer: SetTimer = defaultTimer): Promise<void> {
  return new Promise<void>((resolve) => {
    const cancel = setTimer(resolve, ms);
    const done = (): void => {
      cancel?.();
      resolve();
    };
    answers.then(done, done);
  });
}
