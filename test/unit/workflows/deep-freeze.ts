/**
 * What the SDK's reusable V8 context does to preloaded modules, for the tests that share them as a
 * worker does.
 */
/**
 * What the SDK's reusable V8 context does to preloaded modules (own properties, depth first;
 * functions' props untouched).
 */
export function deepFreeze(object: unknown, visited = new WeakSet<object>()): void {
  if (object === null || (typeof object !== 'object' && typeof object !== 'function')) return;
  if (visited.has(object) || Object.isFrozen(object)) return;
  visited.add(object);
  if (typeof object === 'object') {
    for (const name of [...Object.getOwnPropertyNames(object), ...Object.getOwnPropertySymbols(object)]) {
      const value = (object as Record<string | symbol, unknown>)[name];
      try {
        deepFreeze(value, visited);
      } catch {
        // As the SDK: some objects (typed arrays) cannot be frozen.
      }
    }
  }
  Object.freeze(object);
}
