/**
 * How a cardflow server process (worker, webhook receiver, codec server, Temporal set-up job)
 * tells a configuration problem from a failure: everything it reads from the environment and
 * secret files before contacting anything is read inside {@link loadConfiguration}, and an error
 * there (a missing or malformed variable, a secret file that is absent or unreadable, a bad key)
 * ends the process with exit code 2 and the message naming the variable, as the `cardflow` CLI does
 * for bad usage. A failure afterwards (Temporal or the database unreachable) exits 1, which an
 * orchestrator may retry; retrying a configuration error never helps.
 */

export const EXIT_CONFIGURATION = 2;
export const EXIT_FAILURE = 1;

export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

/** Runs `load`; whatever it throws becomes a {@link ConfigurationError} with the same message. */
export function loadConfiguration<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** The exit code of a process that failed with `error`. */
export function exitCodeFor(error: unknown): number {
  return error instanceof ConfigurationError ? EXIT_CONFIGURATION : EXIT_FAILURE;
}

/**
 * The one line a process prints when it stops on `error`: `configuration: ...` for a configuration
 * error.
 */
export function failureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof ConfigurationError ? `configuration: ${message}` : message;
}
