/** What `task` throws, to assert on; fails the test when it throws nothing. */
export function thrown(task: () => unknown): unknown {
  try {
    task();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}
