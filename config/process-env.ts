/**
 * The process's environment, the one place production code outside config/ gets it from (an
 * ESLint rule refuses `process.env` elsewhere): what it holds is declared and checked in
 * config/schema.ts, which every entry point runs first, so a module reading a variable through
 * the functions that take this record reads a value already known to be well formed.
 */
export function processEnv(): Record<string, string | undefined> {
  return process.env;
}
