/**
 * The error of type `type` that `fn` throws, for tests that assert on its fields (problems,
 * message). Fails the test when `fn` returns, and rethrows an error of any other type as it was.
 */
export function thrownBy<E extends Error>(fn: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    fn();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name}`);
}
