/**
 * The command line of a cardflow process other than the `cardflow` CLI (`npm start`, the worker,
 * the webhook receiver, the codec server, `npm run cluster`, `npm run bench`, `npm run schemas`),
 * read through commander before the process does anything else: `--help` prints its usage and
 * exits 0 having touched nothing, and an option or argument it does not take exits 2
 * ({@link EXIT_CONFIGURATION}), naming it. Configuration itself is environment variables (README,
 * "Configuration").
 */
import { Command, CommanderError } from 'commander';
import { EXIT_CONFIGURATION } from './startup';

export interface EntryPoint {
  /** How it is run, as the usage line shows it: `npm start`, `node dist/workers/main.js`. */
  name: string;
  /** One sentence: what it does. */
  summary: string;
  /** Lines after the options: what configures it, how it stops, its exit codes. */
  details?: readonly string[];
  /** Declares its own options and arguments (none by default). */
  define?: (command: Command) => void;
}

export interface EntryPointIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** What the command line says: exit now with `exit`, or run with `options` and `args`. */
export type EntryPointArgs =
  { exit: number } | { exit?: undefined; options: Record<string, string | boolean | undefined>; args: string[] };

const CONFIGURATION_NOTE = 'Configured through environment variables: README.md, "Configuration".';

/**
 * Reads `argv` (without node and the script) for `entry`; prints help or the usage error itself.
 */
export function readEntryPointArgs(
  argv: readonly string[],
  entry: EntryPoint,
  io: EntryPointIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) },
): EntryPointArgs {
  const command = new Command(entry.name)
    .description(entry.summary)
    .exitOverride()
    .allowExcessArguments(false)
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .addHelpText('after', `\n${[...(entry.details ?? []), CONFIGURATION_NOTE].join('\n')}`);
  entry.define?.(command);
  try {
    command.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { exit: error.exitCode === 0 ? 0 : EXIT_CONFIGURATION };
  }
  return { options: command.opts(), args: command.args.slice() };
}

/** {@link readEntryPointArgs} for a process's own command line; exits when it says so. */
export function entryPointArgs(entry: EntryPoint): Exclude<EntryPointArgs, { exit: number }> {
  const read = readEntryPointArgs(process.argv.slice(2), entry);
  if (read.exit !== undefined) process.exit(read.exit);
  return read;
}
