/**
 * The process's environment, the one place production code outside platform/config/ gets it from
 * (an ESLint rule refuses `process.env` elsewhere). It is handed on whole: to readConfiguration,
 * which parses every variable platform/config/schema.ts declares, or to a process this one starts.
 * A module that needs one variable reads it parsed, through readVariable (ESLint refuses
 * `processEnv().NAME`).
 */
export function processEnv(): Record<string, string | undefined> {
  return process.env;
}
