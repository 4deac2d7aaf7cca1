/**
 * The `cardflow` command line, run through `bin/cardflow.js`:
 *
 *   cardflow onboard --file customer.json [--watch]   start (or find) an onboarding; --watch follows it stage by stage
 *   cardflow progress <customerRef> [--watch]         the stage an onboarding is in
 *   cardflow correct <customerRef> --file fix.json    corrected cardholder data after a reject
 *   cardflow result <customerRef>                     wait for the onboarding and print what it created
 *   cardflow activate-onboarding <customerRef> --file activation.json [--pin-stdin] [--watch]
 *                                                     the physical card reached the customer: activate it (activateCard Update)
 *   ... and the card lifecycle commands of client/cli-lifecycle.ts (activate, transfer,
 *   shared-account, fund-wallet, card freeze|unfreeze|pin|deposit|status, status <workflowId>).
 *
 * Exit codes: 0 done, 1 failed, 2 bad usage or input (nothing started).
 * Files are validated with the domain's schemas before anything is contacted: a bad file prints
 * each field and rule it breaks (never the values) and exits 2 having started nothing.
 * Connection: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, ... (`client/connection.ts`); payload keys:
 * CARDFLOW_CODEC_KEYS(_FILE), else outside production the dev key of `npm start` (the input it
 * sends holds personal data, so it is encrypted like every payload); the Web UI base
 * for links: CARDFLOW_TEMPORAL_UI_URL (default http://127.0.0.1:8233); a PIN is sealed with
 * CARDFLOW_MERCHANT_PUBLIC_KEY(_FILE) (client/sealing.ts).
 */
import type { Client } from '@temporalio/client';
import { WorkflowFailedError } from '@temporalio/client';
import { parseArgs } from 'node:util';
import { dataConverterFromEnv } from '../../codec/data-converter';
import { CardflowStage, onboardingWorkflowId } from '../../domain';
import { CardWorkflowClosedError } from '../card-entity';
import { CLI_OPTIONS, type CliContext, type CliIo, readJsonFile, UsageError } from './context';
import { WORKFLOW_COMMANDS_USAGE, pinFromStdin, runWorkflowCommand } from './workflow-commands';
import { connectTemporalClient } from '../connection';
import { describeProgress, describeResult, workflowUiUrl } from '../describe';
import {
  activateOnboardingCard,
  awaitResult,
  getProgress,
  onboardingHandle,
  startOnboarding,
  submitCorrection,
} from '../onboarding';
import { watchProgress } from '../progress';
import { MerchantKeyError, merchantPublicKeyFromEnv } from '../sealing';
import {
  InvalidInputError,
  parseActivationRequest,
  parseCardholderCorrection,
  parseOnboardingInput,
} from '../validation';

export type { CliIo } from './context';

export const USAGE = `usage:
  cardflow onboard --file customer.json [--watch]
  cardflow progress <customerRef> [--watch]
  cardflow correct <customerRef> --file fix.json
  cardflow result <customerRef>
  cardflow activate-onboarding <customerRef> --file activation.json [--pin-stdin] [--watch]
${WORKFLOW_COMMANDS_USAGE}
options: --task-queue <name> (default CARDFLOW_TASK_QUEUE, else cardflow)
exit codes: 0 done, 1 failed, 2 bad usage or input (nothing started)`;

/** Runs one command; resolves with the process exit code (0 done, 1 failed, 2 bad usage or input). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  const parse = (args: readonly string[]) =>
    parseArgs({
      args: [...args],
      allowPositionals: true,
      options: CLI_OPTIONS,
    });
  try {
    parsed = parse(argv);
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ref, arg2] = positionals;
  if (values.help || !command) {
    (values.help ? io.out : io.err)(USAGE);
    return values.help ? 0 : 2;
  }
  const uiBase = io.env.CARDFLOW_TEMPORAL_UI_URL || 'http://127.0.0.1:8233';
  // Keys are resolved only when Temporal is contacted, so a bad input file is reported first.
  const connect =
    io.connect ??
    (() => connectTemporalClient({ env: io.env, dataConverter: dataConverterFromEnv({ env: io.env }).dataConverter }));

  let temporal: Awaited<ReturnType<typeof connect>> | undefined;
  const client = async (): Promise<Client> => (temporal ??= await connect()).client;
  const follow = async (customerRef: string): Promise<number> => {
    const watched = await watchProgress(
      await client(),
      customerRef,
      (p) => io.out(`${new Date().toISOString().slice(11, 19)}  ${describeProgress(p)}`),
      {
        ...(io.signal ? { signal: io.signal } : {}),
      },
    );
    if (watched.status === 'RUNNING') return 0; // interrupted: the onboarding goes on
    return printResult(customerRef);
  };
  const printResult = async (customerRef: string): Promise<number> => {
    try {
      io.out(describeResult(await awaitResult(await client(), customerRef)));
      return 0;
    } catch (error) {
      if (!(error instanceof WorkflowFailedError)) throw error;
      const cause = error.cause as { type?: string; message?: string } | undefined;
      io.err(
        `onboarding ${customerRef} failed: ${cause?.type ? `${cause.type}: ` : ''}${cause?.message ?? error.message}`,
      );
      return 1;
    }
  };

  // The worker's queue: --task-queue, else CARDFLOW_TASK_QUEUE (as the worker reads it), else `cardflow`.
  const taskQueueName = values['task-queue'] || io.env.CARDFLOW_TASK_QUEUE || undefined;
  const taskQueue = taskQueueName ? { taskQueue: taskQueueName } : {};
  const ctx: CliContext = { io, values, client, namespace: () => temporal?.namespace ?? '', taskQueue, uiBase };

  try {
    // Card lifecycle commands (client/cli-lifecycle.ts); onboarding ones below.
    const lifecycle = runWorkflowCommand(ctx, command, [ref, arg2]);
    if (lifecycle) return await lifecycle;
    switch (command) {
      case 'onboard': {
        if (!values.file) throw new UsageError('onboard needs --file <customer.json>');
        const raw = await readJsonFile(values.file);
        // A clear activation PIN in the file is sealed before anything is contacted (client/sealing.ts).
        const activation =
          raw !== null && typeof raw === 'object' ? (raw as { activation?: unknown }).activation : undefined;
        const hasPin = activation !== null && typeof activation === 'object' && 'pin' in activation;
        const input = parseOnboardingInput(raw, hasPin ? { merchantPublicKey: merchantPublicKeyFromEnv(io.env) } : {});
        const started = await startOnboarding(await client(), input, taskQueue);
        io.out(`${started.started ? 'started' : 'already exists (this file was not used)'}: ${started.workflowId}`);
        io.out(`watch it in the Temporal UI: ${workflowUiUrl(uiBase, temporal!.namespace, started.workflowId)}`);
        return values.watch ? await follow(input.customerRef) : 0;
      }
      case 'progress': {
        if (!ref) throw new UsageError('progress needs a <customerRef>');
        onboardingWorkflowId(ref); // refuses an impossible reference before connecting
        if (values.watch) return await follow(ref);
        try {
          io.out(describeProgress(await getProgress(await client(), ref)));
        } catch (error) {
          // A query needs a worker to answer it; describe needs none and still tells where things stand.
          const description = await onboardingHandle(await client(), ref).describe();
          const stage = description.typedSearchAttributes.get(CardflowStage);
          io.out(
            `${description.status.name}${stage ? `, stage ${stage}` : ''} (progress query unanswered: ${error instanceof Error ? error.message : String(error)}; is a worker running?)`,
          );
        }
        return 0;
      }
      case 'correct': {
        if (!ref) throw new UsageError('correct needs a <customerRef>');
        if (!values.file) throw new UsageError('correct needs --file <fix.json>');
        const correction = parseCardholderCorrection(await readJsonFile(values.file));
        const status = await submitCorrection(await client(), ref, correction);
        // The Update answers once the correction was resubmitted, or once the cardholder step failed.
        if (status.stage === 'failed') {
          io.err(
            `correction not applied: the cardholder step of ${ref} failed${status.failure ? `: ${status.failure.type}: ${status.failure.message}` : ''}`,
          );
          return 1;
        }
        io.out(
          `correction sent: cardholder ${status.holderId ?? '?'} is ${status.stage}${status.status ? ` (${status.status})` : ''}`,
        );
        return 0;
      }
      case 'activate-onboarding': {
        if (!ref) throw new UsageError('activate-onboarding needs a <customerRef>');
        onboardingWorkflowId(ref);
        if (!values.file) throw new UsageError('activate-onboarding needs --file <activation.json>');
        const raw = await readJsonFile(values.file);
        // The PIN comes from the file or, better, standard input; it is sealed before anything is contacted.
        const pin = await pinFromStdin(ctx);
        const request = pin !== undefined && raw !== null && typeof raw === 'object' ? { ...raw, pin } : raw;
        const hasPin = request !== null && typeof request === 'object' && 'pin' in request;
        const valid = parseActivationRequest(
          request,
          hasPin ? { merchantPublicKey: merchantPublicKeyFromEnv(io.env) } : {},
        );
        const accepted = await activateOnboardingCard(await client(), ref, valid);
        io.out(`activation accepted (${accepted.route}): ${accepted.activationWorkflowId}`);
        return values.watch ? await follow(ref) : 0;
      }
      case 'result':
        if (!ref) throw new UsageError('result needs a <customerRef>');
        return await printResult(ref);
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } catch (error) {
    if (error instanceof InvalidInputError) {
      io.err(`${values.file ?? 'input'}: ${error.message}\nnothing was started`);
      return 2;
    }
    if (error instanceof MerchantKeyError) {
      io.err(`${error.message}\nnothing was started`);
      return 2;
    }
    if (error instanceof CardWorkflowClosedError) {
      io.err(error.message);
      return 1;
    }
    if (error instanceof UsageError || (error instanceof Error && error.name === 'InvalidCustomerRefError')) {
      io.err(`${error.message}\n${USAGE}`);
      return 2;
    }
    io.err(`cardflow: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
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

/** Entry point of `bin/cardflow.js`: runs with the process's arguments, environment and Ctrl-C. */
export function main(argv: readonly string[] = process.argv.slice(2)): void {
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  runCli(argv, {
    out: (l) => console.log(l),
    err: (l) => console.error(l),
    env: process.env,
    signal: abort.signal,
    readStdin,
  }).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}

if (require.main === module) main();
