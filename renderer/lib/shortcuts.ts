/**
 * The window's own keyboard shortcuts, defined once: the frame's handler (App.svelte) acts on them,
 * and the first script keeps those pressed before the frame is there (renderer/lib/early-keys.ts).
 */

/** Ctrl+K (⌘K on macOS): opens or closes the command palette. */
export function isPaletteShortcut(e: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'altKey' | 'key'>): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k';
}
