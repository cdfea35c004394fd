import { mount } from 'svelte';
import App from './App.svelte';

/**
 * The window's frame (header, tree, overview), mounted once the first script has sent the first
 * reads (renderer/main.ts). Built as one chunk with everything it imports statically (vite.config.ts),
 * so the first frame is two scripts, fetched side by side; the command palette and the site dialogs
 * are chunks of their own (views/parts.ts, FRAME_PARTS), loaded after the first frame.
 *
 * The frame is built at once but kept out of layout (`hidden`) until `shown` settles (the entry
 * passes the first reads' answers, or their deadline). So its components are made while main is
 * still answering, and the first frame painted is the one with the fleet, never an empty one laid
 * out twice.
 */
export function mountFrame(target: HTMLElement, shown: Promise<unknown> = Promise.resolve()): ReturnType<typeof mount> {
  target.hidden = true;
  const show = (): void => {
    target.hidden = false;
  };
  void shown.then(show, show);
  return mount(App, { target });
}
