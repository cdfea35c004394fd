/**
 * Waits until `condition` holds, looking every 10 ms; fails naming `what` after `timeoutMs`. For
 * conditions outside this process's control (another process, a server's sockets): it asserts no
 * duration, and the limit is only there so a broken condition fails instead of hanging.
 */
export async function until(condition: () => boolean, what: string | (() => string), timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
