import { unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { mountFrame } from '../../../renderer/frame.js';
import { firstReadsAnswered, setApi, startFirstReads } from '../../../renderer/lib/api.js';
import { answersOrDeadline, type SetTimer } from '../../../renderer/lib/first-answers.js';
import { fakeApi, settle, site, status } from './support/fake-api.js';

/**
 * The page's start (renderer/main.ts). The frame is built while main answers the first
 * reads, kept out of layout, and shown with their answers: the first frame the browser lays out and
 * paints is the one with the fleet, not an empty one ("Loading…") followed by a second layout.
 * Answers that are late or failed never leave the window blank.
 */
const FLEET = { sites: [site('s1', 'Site one')], statuses: [status('s1', 'prod-a', 'ok'), status('s1', 'prod-b', 'ok')] };

/** A fake main whose `held` answer waits until released (a slow health read at 1,000 systems). */
function slowMain(held: string, opts: { fail?: string } = {}) {
  const fake = fakeApi(FLEET);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  setApi({
    invoke: async (channel, request) => {
      if (channel === opts.fail) throw Object.assign(new Error('the cache could not be read'), { code: 'store' });
      if (channel === held) await released;
      return fake.api.invoke(channel, request);
    },
    on: fake.api.on,
  });
  return { release };
}

/** A task (the browser lays out and paints only between tasks). */
const nextTask = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

const frames: Array<{ app: ReturnType<typeof mountFrame>; target: HTMLElement }> = [];
/** Starts the page as renderer/main.ts does; the deadline's timer is the test's (by default, one that never fires). */
function start(setTimer: SetTimer = () => undefined): HTMLElement {
  const target = document.createElement('div');
  document.body.append(target);
  startFirstReads();
  const answers = answersOrDeadline(firstReadsAnswered(), 500, setTimer);
  frames.push({ app: mountFrame(target, answers), target });
  return target;
}
afterEach(() => {
  for (const f of frames.splice(0)) {
    void unmount(f.app);
    f.target.remove();
  }
});

const treeRows = (target: HTMLElement): number => target.querySelectorAll('[data-testid^="tree-system-"]').length;

describe('the page start', () => {
  it('builds the frame at once, and shows it only with the first answers, in the task they arrive in', async () => {
    const main = slowMain('health:briefs');
    const target = start();
    await settle();
    // Made, but not laid out: the fleet waits for every system's roll-up, to be built once with it.
    expect(target.hidden).toBe(true);
    expect(target.querySelector('.app')).not.toBeNull();
    expect(treeRows(target)).toBe(0);

    // The last answer arrives in a task of its own; before the next one, the frame is shown with the fleet.
    await new Promise<void>((r) =>
      setTimeout(() => {
        main.release();
        r();
      }, 0),
    );
    await nextTask();
    expect(target.hidden).toBe(false);
    expect(treeRows(target)).toBe(2);
    expect(target.querySelector('[data-testid="fleet-totals"]')?.textContent).toContain('2 systems');
  });

  it('shows the frame with "Loading…" when the answers are late, and the fleet once they come', async () => {
    const main = slowMain('fleet:status');
    const timers: Array<() => void> = [];
    const target = start((run) => void timers.push(run));
    await settle();
    expect(target.hidden).toBe(true);
    // The deadline passes: a frame that says it is reading, not a blank window.
    for (const run of timers) run();
    await settle();
    expect(target.hidden).toBe(false);
    expect(target.textContent).toContain('Loading the fleet…');
    main.release();
    await settle();
    expect(treeRows(target)).toBe(2);
  });

  it('shows the frame with the error of a first read that failed', async () => {
    slowMain('none', { fail: 'fleet:status' });
    const target = start();
    await settle();
    expect(target.hidden).toBe(false);
    expect(target.querySelector('[role="alert"]')?.textContent).toMatch(/the cache could not be read/);
  });
});
