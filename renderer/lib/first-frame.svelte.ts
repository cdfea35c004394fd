/**
 * The window's first frame with its fleet: until it is painted, the tree and the tables
 * render only the rows in view, and the rows kept beyond the view for scrolling (their overscan)
 * follow right after, outside the frame the admin waits for. App.svelte sets `pending` at its start
 * and clears it once the fleet's first read is shown and painted; anywhere else (component tests,
 * any later view) it stays false and nothing changes.
 */
export const firstFrame = $state({ pending: false });
