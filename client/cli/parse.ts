/**
 * The `cardflow` command line read through commander: one commander command per entry of the
 * registry (main.ts), taking exactly the options the entry lists plus `--task-queue` and `--help`,
 * and at most as many arguments as its usage lines show. The help texts stay the registry's own
 * (`cardflow --help`, `cardflow help <command>`, `cardflow <command> --help` print the same), and
 * a parse error is one short line naming what was wrong, then the command's usage lines.
 */
import { Command as Program, CommanderError, Option } from 'commander';
import { CLI_OPTIONS, type CliOption, type CliValues, type Command } from './context';

/** What the command line asked for: a command to run, or text to print and an exit code. */
export type Parsed =
  | { kind: 'run'; command: Command; args: string[]; values: CliValues }
  | { kind: 'print'; to: 'out' | 'err'; text: string; code: number };

export interface ParseTexts {
  usage: string;
  commandHelp(command: Command): string;
  version(): string;
}

/** Short flag of the options that have one (`-f`, `-w`). */
const SHORT: Partial<Record<CliOption, string>> = Object.fromEntries(
  Object.entries(CLI_OPTIONS).flatMap(([name, spec]) => ('short' in spec ? [[name, spec.short]] : [])),
);

function optionFor(name: CliOption): Option {
  const short = SHORT[name];
  const flags = `${short ? `-${short}, ` : ''}--${name}${CLI_OPTIONS[name].type === 'string' ? ' <value>' : ''}`;
  return new Option(flags);
}

/**
 * How many arguments a command takes at most, read from its usage lines: the words left once
 * the bracketed options, `--option <value>` pairs and `|` are set aside (`card freeze <cardNo>
 * --request <id>` takes two: the action and the card).
 */
export function argumentLimit(command: Command): number {
  return Math.max(
    0,
    ...command.usage.map((line) => {
      const words = line
        .replace(/\[[^\]]*\]/g, ' ')
        .split(/\s+/)
        .slice(1)
        .filter((w) => w !== '' && w !== '|');
      let count = 0;
      for (let i = 0; i < words.length; i += 1) {
        const word = words[i]!;
        if (word.startsWith('-')) {
          const name = word.replace(/^-+/, '') as CliOption;
          if (CLI_OPTIONS[name]?.type === 'string') i += 1;
        } else count += 1;
      }
      return count;
    }),
  );
}

function usageLines(command: Command): string {
  return command.usage.map((u, i) => `${i === 0 ? 'usage: ' : '       '}cardflow ${u}`).join('\n');
}

/** The one-line complaint for a commander parse error in `command` (undefined: the top level). */
function complaint(error: CommanderError, command: Command | undefined, limit: number): string {
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? '';
  const where = command?.name ?? 'cardflow';
  switch (error.code) {
    case 'commander.unknownOption':
      return `${where} does not take ${quoted}`;
    case 'commander.excessArguments':
      return `${where} takes ${limit === 0 ? 'no arguments' : `at most ${limit} argument${limit === 1 ? '' : 's'}`}, got more`;
    case 'commander.optionMissingArgument':
      return `${where}: ${quoted.replace(/.*(--[\w-]+).*/, '$1')} needs a value`;
    case 'commander.unknownCommand':
      return `unknown command ${quoted}`;
    default:
      return `${where}: ${error.message.replace(/^error: /, '')}`;
  }
}

/** Reads `argv` against `commands`; never prints, never exits (the caller does both). */
export function parseCommandLine(argv: readonly string[], commands: readonly Command[], texts: ParseTexts): Parsed {
  if (argv.length === 0) return { kind: 'print', to: 'err', text: texts.usage, code: 2 };
  const printed: string[] = [];
  let selected: Extract<Parsed, { kind: 'run' }> | undefined;
  let failedIn: Command | undefined;

  const program = new Program('cardflow')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => printed.push(text.replace(/\n$/, '')),
      writeErr: (text) => printed.push(text.replace(/\n$/, '')),
      outputError: () => undefined,
    })
    .configureHelp({ formatHelp: () => texts.usage })
    .version(texts.version(), '--version')
    .helpCommand('help [command]')
    .allowExcessArguments(false);

  for (const command of commands) {
    const names = new Set<CliOption>([...command.options, 'task-queue']);
    names.delete('help');
    names.delete('version');
    const limit = argumentLimit(command);
    const sub = program
      .command(command.name)
      .configureHelp({ formatHelp: () => texts.commandHelp(command) })
      .allowExcessArguments(false)
      .exitOverride((error) => {
        failedIn = command;
        throw error;
      });
    for (const name of names) sub.addOption(optionFor(name));
    for (let i = 0; i < limit; i += 1) sub.argument(`[arg${i}]`);
    sub.action(() => {
      const opts = sub.opts<Record<string, string | boolean | undefined>>();
      const values: CliValues = {};
      for (const name of names) {
        const v = opts[optionFor(name).attributeName()];
        if (v !== undefined) (values as Record<string, string | boolean>)[name] = v;
      }
      selected = { kind: 'run', command, args: sub.args.slice(), values };
    });
  }

  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code)) {
      // A non-zero `commander.help` is help shown for want of a command: bad usage.
      const asked = error.exitCode === 0;
      return { kind: 'print', to: asked ? 'out' : 'err', text: printed.join('\n'), code: asked ? 0 : 2 };
    }
    const usage = failedIn ? usageLines(failedIn) : 'cardflow help lists the commands';
    return {
      kind: 'print',
      to: 'err',
      text: `${complaint(error, failedIn, failedIn ? argumentLimit(failedIn) : 0)}\n${usage}`,
      code: 2,
    };
  }
  if (selected) return selected;
  return { kind: 'print', to: 'err', text: texts.usage, code: 2 };
}
