/**
 * The one Content-Security-Policy of both shells: only the app's own scripts, no eval, no remote
 * anything. Inline styles are allowed because Svelte sets style attributes at run time. Kept as one
 * literal so static scanners (electronegativity) can read it.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
