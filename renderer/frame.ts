import { mount } from 'svelte';
import App from './App.svelte';

/**
 * The window's frame (header, tree, overview), mounted once the first script has sent the first
 * reads (renderer/main.ts). Built as one chunk with everything it imports statically (vite.config.ts),
 * so the first frame is two scripts, fetched side by side; the command palette and the site dialogs
 * are chunks of their own (views/parts.ts, FRAME_PARTS), loaded after the first frame.
 *
 * The frame is built at once but kept out of layout (`hidden`) until `shown` settles: the entry
 * passes the first reads' answers (or their deadline), so the frame's components are made while
 * main is still answering, and the first frame the browser lays out and paints is the one with the
 * fleet, published in the same task as the answers arrive. Mounting and showing it before them
 * painted an empty frame ("reading…", ~25 ms of layout and paint at 1,000 systems) while the
 * answers waited, then laid it out again with them (issue 17).
 */
export function mountFrame(target: HTMLElement, shown: Promise<unknown> = Promise.resolve()): ReturnType<typeof mount> {
  target.hidden = true;
  const show = (): void => {
    target.hidden = false;
  };
  void shown.then(show, show);
  return mount(App, { target });
}
