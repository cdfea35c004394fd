import { mount } from 'svelte';
import App from './App.svelte';

/**
 * The window's frame (header, tree, overview), mounted once the first script has sent the first
 * reads (renderer/main.ts). Built as one chunk with everything it imports statically (vite.config.ts),
 * so the first frame is two scripts, fetched side by side; the command palette and the site dialogs
 * are chunks of their own (views/parts.ts, FRAME_PARTS), loaded after the first frame.
 */
export function mountFrame(target: HTMLElement): void {
  mount(App, { target });
}
