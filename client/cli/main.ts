/**
 * The `cardflow` command line: `cardflow --help` lists the commands, `cardflow <command> --help`
 * shows one. Each command is one object in {@link COMMANDS}, its usage lines bounding its
 * arguments (parse.ts). Input files are validated before anything is contacted: a bad one prints
 * each field and rule (never the values) and exits 2 having started nothing. Settings as every
 * process reads them (the README's configuration table): Temporal's, the codec keys (payloads
 * hold personal data), the Web UI base for links, the merchant public key that seals a PIN.
 */
import type { Client } from '@temporalio/client';
import { CodecKeyError } from '../../platform/codec/data-converter';
import { EnvironmentError } from '../../platform/config/environment';
import { configured, type Configuration, ConfigurationProblems, readConfiguration } from '../../platform/config/schema';
import { InvalidBusinessRefError } from '../../domain/workflow-ids';
import { CardWorkflowClosedError } from '../card-entity';
import { connectTemporalClient, TemporalUnreachableError } from '../../platform/temporal/connection';
import { isTemporalUnavailable, TemporalUnavailableError } from '../../platform/temporal/unavailable-retry';
import { OnboardingRecoveryError } from '../recovery';
import { MerchantKeyError } from '../sealing';
import { InvalidInputError } from '../validation';
import { type CliContext, type CliIo, type Command, ExitCodes, UsageError } from './context';
import { DEPLOYMENT_COMMAND } from './deployment-commands';
import { EVENTS_COMMAND, LISTEN_COMMAND } from './event-commands';
import { FILES_COMMAND } from './file-commands';
import { REFERENCE_COMMAND } from './reference-commands';
import { ReferenceDataUnavailableError } from '../reference-data';
import { HISTORIES_COMMAND } from './history-commands';
import { ONBOARDING_COMMANDS } from './onboarding-commands';
import { ACKNOWLEDGE_COMMAND, RECONCILE_COMMAND } from './reconcile-commands';
import { SANDBOX_COMMAND } from './sandbox-commands';
import { parseCommandLine } from './parse';
import { WORKFLOW_COMMANDS } from './workflow-commands';
import { CARD_HISTORY_COMMAND } from './card-history-commands';
import { CARD_DETAILS_COMMAND } from './card-details-commands';
import { ACCOUNT_COMMANDS } from './account-commands';
import { processEnv } from '../../platform/config/process-env';
import { cardflowVersion } from '../../platform/config/version';

export type { CliIo } from './context';

/** How long the CLI waits for anything to accept a connection at the Temporal address. */
export const LISTENER_WITHIN_MS = 2_000;

/** Every command, in the order `cardflow --help` lists them. */
export const COMMANDS: readonly Command[] = [
  ...ONBOARDING_COMMANDS,
  ...WORKFLOW_COMMANDS,
  FILES_COMMAND,
  REFERENCE_COMMAND,
  CARD_HISTORY_COMMAND,
  CARD_DETAILS_COMMAND,
  ...ACCOUNT_COMMANDS,
  RECONCILE_COMMAND,
  ACKNOWLEDGE_COMMAND,
  SANDBOX_COMMAND,
  DEPLOYMENT_COMMAND,
  HISTORIES_COMMAND,
  EVENTS_COMMAND,
  LISTEN_COMMAND,
];

const EXIT_CODES_HELP = `exit codes: ${ExitCodes.done} done, ${ExitCodes.failed} failed (the workflow failed or was refused), ${ExitCodes.usage} bad usage or input (nothing started), ${ExitCodes.drift} reconciliation found drift, ${ExitCodes.unavailable} Temporal unavailable (still down after CARDFLOW_TEMPORAL_RIDE_OUT_MS, default 60 s)`;

export const USAGE = `usage: cardflow <command> [options]    (cardflow help <command>, or cardflow <command> --help, for one command)

${COMMANDS.map((c) => c.usage.map((u) => `  cardflow ${u}`).join('\n')).join('\n')}

options for every command: --task-queue <name> (default CARDFLOW_TASK_QUEUE, else cardflow), --help; cardflow --version
${EXIT_CODES_HELP}`;

/** One command's help: its usage lines, what it does, and the details. */
export function commandHelp(command: Command): string {
  return [
    ...command.usage.map((u, i) => `${i === 0 ? 'usage: ' : '       '}cardflow ${u}`),
    '',
    command.summary,
    ...(command.details ?? []),
    '',
    EXIT_CODES_HELP,
  ].join('\n');
}

/** Runs one command; resolves with the process exit code ({@link ExitCodes}). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(argv, COMMANDS, { usage: USAGE, commandHelp, version: cardflowVersion });
  if (parsed.kind === 'print') {
    io[parsed.to](parsed.text);
    return parsed.code;
  }
  const { command, args, values } = parsed;

  // Every variable against its rule, the interlock included, all problems at once
  // (platform/config/schema.ts).
  let config: Configuration;
  try {
    config = readConfiguration(io.env);
  } catch (error) {
    if (!(error instanceof EnvironmentError || error instanceof ConfigurationProblems)) throw error;
    io.err(`${error.message}\nnothing was started`);
    return ExitCodes.usage;
  }
  const uiBase = configured(config, 'CARDFLOW_TEMPORAL_UI_URL');
  // A Temporal restart is waited out (platform/temporal/unavailable-retry.ts), saying so on stderr.
  const limitMs = configured(config, 'CARDFLOW_TEMPORAL_RIDE_OUT_MS');
  const whileUnavailable = { limitMs, onWait: (message: string) => io.err(`cardflow: ${message}`) };
  // Keys are resolved only when Temporal is contacted, so a bad input file is reported first.
  // A retry window of 0 tries once: then nothing listening at the address fails in 2 s, naming it,
  // instead of the connection's own deadline. Otherwise a frontend that is down (a restart, no
  // proxy in front) is ridden out like one that accepts but is not serving.
  const listenerWithinMs = limitMs === 0 ? LISTENER_WITHIN_MS : undefined;
  const connect =
    io.connect ??
    (() => connectTemporalClient({ env: io.env, configuration: config, whileUnavailable, listenerWithinMs }));
  let temporal: Awaited<ReturnType<typeof connect>> | undefined;
  const client = async (): Promise<Client> => (temporal ??= await connect()).client;
  // The worker's queue: --task-queue, else CARDFLOW_TASK_QUEUE (as the worker reads it), else
  // `cardflow`.
  const taskQueueName = values['task-queue'] || config.CARDFLOW_TASK_QUEUE;
  const ctx: CliContext = {
    io,
    values,
    client,
    namespace: () => temporal?.namespace ?? '',
    startOptions: { ...(taskQueueName ? { taskQueue: taskQueueName } : {}), whileUnavailable },
    uiBase,
    config,
  };

  try {
    return await command.run(ctx, args);
  } catch (error) {
    if (error instanceof TemporalUnavailableError || error instanceof TemporalUnreachableError) {
      io.err(`cardflow: ${error.message}`);
      return ExitCodes.unavailable;
    }
    if (isTemporalUnavailable(error)) {
      // A read or a watch met the outage (only starts and the connection ride it out).
      io.err(`cardflow: Temporal unavailable: ${error instanceof Error ? error.message : String(error)}`);
      return ExitCodes.unavailable;
    }
    if (error instanceof EnvironmentError) {
      io.err(`${error.message}\nnothing was started`);
      return ExitCodes.usage;
    }
    if (error instanceof InvalidInputError) {
      io.err(`${values.file ?? 'input'}: ${error.message}\nnothing was started`);
      return ExitCodes.usage;
    }
    // A missing or malformed codec key is configuration: exit 2, as README says.
    if (error instanceof CodecKeyError) {
      io.err(`${error.message}\nnothing was started`);
      return ExitCodes.usage;
    }
    if (error instanceof MerchantKeyError) {
      io.err(`${error.message}\nnothing was started`);
      return ExitCodes.usage;
    }
    if (error instanceof ReferenceDataUnavailableError) {
      io.err(`${error.message}\nnothing was started`);
      return ExitCodes.failed;
    }
    if (error instanceof CardWorkflowClosedError || error instanceof OnboardingRecoveryError) {
      io.err(error.message);
      return ExitCodes.failed;
    }
    if (error instanceof UsageError || error instanceof InvalidBusinessRefError) {
      io.err(`${error.message}\n${commandHelp(command)}`);
      return ExitCodes.usage;
    }
    io.err(`cardflow: ${error instanceof Error ? error.message : String(error)}`);
    return ExitCodes.failed;
  } finally {
    await temporal?.close();
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Entry point of `client/cli/cardflow.js`: runs with the process's arguments, environment and
 * Ctrl-C.
 */
export function main(argv: readonly string[] = process.argv.slice(2)): void {
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  runCli(argv, {
    out: (l) => console.log(l),
    err: (l) => console.error(l),
    env: processEnv(),
    signal: abort.signal,
    readStdin,
    stdoutIsTerminal: process.stdout.isTTY === true,
  }).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(error);
      process.exitCode = ExitCodes.failed;
    },
  );
}

if (require.main === module) main();
