/**
 * How long the frame waits for the first reads' answers before it is shown without them (ms from the
 * entry's start; renderer/frame.ts): it then says it is loading until they come, as with a slow
 * main, rather than leave the window blank. Main answers them long before
 * that even at 1,000 systems.
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
