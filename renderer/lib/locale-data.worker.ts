/**
 * Builds the window's locale objects once, on a thread of its own, then says so. The locale data
 * they load (the first Intl object of a renderer process costs some 20 ms) is shared by every thread
 * of the process, so the page's own objects, built later on its main thread, find it loaded.
 */
import { warmFormats } from './locale-formats.js';

warmFormats();
postMessage(null);
