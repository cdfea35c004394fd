import { mount } from 'svelte';
import App from './App.svelte';

/**
 * The window's frame (header, tree, overview, palette), mounted once the first script has sent the
 * first reads (renderer/main.ts). Built as one chunk with everything it imports (vite.config.ts), so
 * the first frame is two scripts, fetched side by side.
 */
export function mountFrame(target: HTMLElement): void {
  mount(App, { target });
}
