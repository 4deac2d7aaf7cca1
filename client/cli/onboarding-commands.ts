/**
 * The `cardflow` commands of customer onboarding: start one, follow it, correct a rejected
 * cardholder, activate a delivered physical card, read the result, resume or cancel one that did
 * not complete, and list onboardings the way an operator filters them in the Temporal UI.
 */
import type { Client } from '@temporalio/client';
import {
  CardflowCardNo,
  CardflowCustomerRef,
  CardflowFlow,
  CardflowHolderId,
  CardflowStage,
  describeCompensation,
  customerOnboardingWorkflow,
  FLOWS,
  isQueryLiteral,
  ONBOARDING_STAGES,
  onboardingWorkflowId,
  type OnboardingProgress,
} from '../../domain';
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
import { cancelOnboarding, retryOnboarding } from '../recovery';
import { merchantPublicKeyFrom } from '../sealing';
import { parseActivationRequest, parseCardholderCorrection, parseOnboardingInput } from '../validation';
import {
  type CliContext,
  type Command,
  ExitCodes,
  printResult,
  printSettled,
  readJsonFile,
  timestamped,
  UsageError,
} from './context';
import { pinFromStdin } from './workflow-commands';

/**
 * A command on one onboarding: its first argument is the customer reference, refused (naming the
 * command) when missing or impossible as an id, before anything is contacted.
 */
function onOnboarding(
  command: Omit<Command, 'run'>,
  run: (ctx: CliContext, customerRef: string) => Promise<number>,
): Command {
  return {
    ...command,
    run: (ctx, [ref]) => {
      if (!ref) throw new UsageError(`${command.name} needs a <customerRef>`);
      onboardingWorkflowId(ref);
      return run(ctx, ref);
    },
  };
}

/**
 * Prints the onboarding's result (0) or its failure (1); with --json, `{ status, result | failure
 * }`.
 */
async function printOnboardingResult(ctx: CliContext, customerRef: string): Promise<number> {
  return printSettled(
    ctx,
    { customerRef },
    `onboarding ${customerRef}`,
    async () => awaitResult(await ctx.client(), customerRef),
    describeResult,
  );
}

/**
 * Prints each stage as the onboarding enters it, then its result; interrupted (Ctrl-C): 0, the
 * onboarding goes on.
 */
async function followOnboarding(ctx: CliContext, customerRef: string): Promise<number> {
  const watched = await watchProgress(
    await ctx.client(),
    customerRef,
    (p) => ctx.io.out(timestamped(describeProgress(p))),
    ctx.io.signal ? { signal: ctx.io.signal } : {},
  );
  if (watched.status === 'RUNNING') return ExitCodes.done;
  return printOnboardingResult(ctx, customerRef);
}

async function onboard(ctx: CliContext): Promise<number> {
  if (!ctx.values.file) throw new UsageError('onboard needs --file <customer.json>');
  const raw = await readJsonFile(ctx.values.file);
  // A clear activation PIN in the file is sealed before anything is contacted (client/sealing.ts).
  const activation = raw !== null && typeof raw === 'object' ? (raw as { activation?: unknown }).activation : undefined;
  const hasPin = activation !== null && typeof activation === 'object' && 'pin' in activation;
  const input = parseOnboardingInput(raw, hasPin ? { merchantPublicKey: merchantPublicKeyFrom(ctx.config) } : {});
  const started = await startOnboarding(await ctx.client(), input, { ...ctx.startOptions, config: ctx.config });
  ctx.io.out(`${started.started ? 'started' : 'already exists (this file was not used)'}: ${started.workflowId}`);
  ctx.io.out(`watch it in the Temporal UI: ${workflowUiUrl(ctx.uiBase, ctx.namespace(), started.workflowId)}`);
  return ctx.values.watch ? followOnboarding(ctx, input.customerRef) : ExitCodes.done;
}

async function progress(ctx: CliContext, ref: string): Promise<number> {
  if (ctx.values.watch) return followOnboarding(ctx, ref);
  const client = await ctx.client();
  let current: OnboardingProgress;
  try {
    current = await getProgress(client, ref);
  } catch (error) {
    // A query needs a worker to answer it; describe needs none and still tells where things stand.
    const description = await onboardingHandle(client, ref).describe();
    const stage = description.typedSearchAttributes.get(CardflowStage);
    const reason = error instanceof Error ? error.message : String(error);
    printResult(
      ctx,
      { customerRef: ref, status: description.status.name, ...(stage ? { stage } : {}), queryError: reason },
      () =>
        `${description.status.name}${stage ? `, stage ${stage}` : ''} (progress query unanswered: ${reason}; is a worker running?)`,
    );
    return ExitCodes.done;
  }
  printResult(ctx, current, () => describeProgress(current));
  return ExitCodes.done;
}

async function correct(ctx: CliContext, ref: string): Promise<number> {
  if (!ctx.values.file) throw new UsageError('correct needs --file <correction.json>');
  const correction = parseCardholderCorrection(await readJsonFile(ctx.values.file));
  const status = await submitCorrection(await ctx.client(), ref, correction, { config: ctx.config });
  // The Update answers once the correction was resubmitted, or once the cardholder step failed.
  if (status.stage === 'failed') {
    ctx.io.err(
      `correction not applied: the cardholder step of ${ref} failed${status.failure ? `: ${status.failure.type}: ${status.failure.message}` : ''}`,
    );
    return ExitCodes.failed;
  }
  ctx.io.out(
    `correction sent: cardholder ${status.holderId ?? '?'} is ${status.stage}${status.status ? ` (${status.status})` : ''}`,
  );
  return ExitCodes.done;
}

async function activateOnboarding(ctx: CliContext, ref: string): Promise<number> {
  if (!ctx.values.file) throw new UsageError('activate-onboarding needs --file <activation-code.json>');
  const raw = await readJsonFile(ctx.values.file);
  // The PIN comes from the file or, better, standard input; it is sealed before anything is
  // contacted.
  const pin = await pinFromStdin(ctx);
  const request = pin !== undefined && raw !== null && typeof raw === 'object' ? { ...raw, pin } : raw;
  const hasPin = request !== null && typeof request === 'object' && 'pin' in request;
  const valid = parseActivationRequest(request, hasPin ? { merchantPublicKey: merchantPublicKeyFrom(ctx.config) } : {});
  const accepted = await activateOnboardingCard(await ctx.client(), ref, valid);
  ctx.io.out(`activation accepted (${accepted.route}): ${accepted.activationWorkflowId}`);
  return ctx.values.watch ? followOnboarding(ctx, ref) : ExitCodes.done;
}

async function retry(ctx: CliContext, ref: string): Promise<number> {
  const resumed = await retryOnboarding(await ctx.client(), ref, {
    ...(ctx.values.force ? { force: true } : {}),
    ...ctx.startOptions,
  });
  const why = resumed.failure ? ` (${resumed.failure.type}: ${resumed.failure.message})` : '';
  const again = resumed.movesAgain
    ? `; it moves again the ${resumed.movesAgain.amount} run ${resumed.movesAgain.runId} returned to the WALLET, under a new merchantOrderNo`
    : '';
  ctx.io.out(
    resumed.started
      ? `resumed ${resumed.workflowId}: a new run continues run ${resumed.previousRunId}, which ended ${resumed.previousStatus}${why}${again}`
      : `${resumed.workflowId} was already resumed; following that run`,
  );
  return ctx.values.watch ? followOnboarding(ctx, ref) : ExitCodes.done;
}

async function cancel(ctx: CliContext, ref: string): Promise<number> {
  const ended = await cancelOnboarding(await ctx.client(), ref);
  const stage = ended.progress?.cancellation?.stage;
  const pending = ended.progress?.cancellation?.pending;
  const compensation = ended.progress?.compensation;
  const record = compensation?.strandedRecord;
  printResult(ctx, ended, () =>
    [
      `${onboardingWorkflowId(ref)} is ${ended.status}${stage ? `: stopped in ${stage}` : ''}${pending ? `; ${pending}` : ''}`,
      // What went back and what stays at the provider; what stays is reported until acknowledged.
      ...(compensation ? [describeCompensation(compensation)] : []),
      ...(record ? [`open record ${record}: cardflow acknowledge ${record} --by <you> once accounted for`] : []),
    ].join('\n'),
  );
  return ended.status === 'CANCELLED' ? ExitCodes.done : ExitCodes.failed;
}

/**
 * A visibility query value: letters, digits and `_ . : -` only, so no input can widen the query.
 */
function literal(option: string, value: string): string {
  if (!isQueryLiteral(value)) throw new UsageError(`--${option}: must be letters, digits, "_", ".", ":" or "-"`);
  return `'${value}'`;
}

/** The visibility query `cardflow list` runs, from its filters (default: onboardings). */
export function listQuery(values: CliContext['values']): string {
  const clauses = [`${CardflowFlow.name} = ${literal('flow', values.flow ?? customerOnboardingWorkflow.flow)}`];
  if (values.stage) {
    if (
      !(ONBOARDING_STAGES as readonly string[]).includes(values.stage) &&
      (values.flow ?? customerOnboardingWorkflow.flow) === customerOnboardingWorkflow.flow
    )
      throw new UsageError(`--stage: must be one of ${ONBOARDING_STAGES.join(', ')}`);
    clauses.push(`${CardflowStage.name} = ${literal('stage', values.stage)}`);
  }
  if (values.card) clauses.push(`${CardflowCardNo.name} = ${literal('card', values.card)}`);
  if (values.holder) clauses.push(`${CardflowHolderId.name} = ${literal('holder', values.holder)}`);
  if (values.customer) clauses.push(`${CardflowCustomerRef.name} = ${literal('customer', values.customer)}`);
  return clauses.join(' AND ');
}

async function list(ctx: CliContext): Promise<number> {
  const query = listQuery(ctx.values);
  const limit = ctx.values.limit === undefined ? 50 : Number(ctx.values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit: must be 1 to 1000');
  const client: Client = await ctx.client();
  const rows: Array<Record<string, string | undefined>> = [];
  for await (const info of client.workflow.list({ query, pageSize: Math.min(limit, 100) })) {
    const attributes = info.typedSearchAttributes;
    rows.push({
      workflowId: info.workflowId,
      status: info.status.name,
      stage: attributes.get(CardflowStage),
      customerRef: attributes.get(CardflowCustomerRef),
      cardNo: attributes.get(CardflowCardNo),
      holderId: attributes.get(CardflowHolderId),
      startTime: info.startTime.toISOString(),
    });
    if (rows.length >= limit) break;
  }
  printResult(ctx, { query, workflows: rows }, () =>
    rows.length === 0
      ? `no workflow matches ${query}`
      : rows
          .map((r) =>
            [
              r.workflowId,
              r.status,
              r.stage ?? '-',
              r.cardNo ? `card ${r.cardNo}` : '',
              r.holderId ? `holder ${r.holderId}` : '',
            ]
              .filter(Boolean)
              .join('  '),
          )
          .join('\n'),
  );
  return ExitCodes.done;
}

export const ONBOARDING_COMMANDS: readonly Command[] = [
  {
    name: 'onboard',
    usage: ['onboard --file customer.json [--watch]'],
    summary: 'start (or find) the onboarding of a customer; --watch follows it stage by stage',
    details: [
      'The file is the onboarding input (client/examples/customer.json); it is validated before anything is sent.',
    ],
    options: ['file', 'watch', 'task-queue'],
    run: (ctx) => onboard(ctx),
  },
  onOnboarding(
    {
      name: 'progress',
      usage: ['progress <customerRef> [--watch] [--json]'],
      summary: 'the stage an onboarding is in, and what it created so far',
      options: ['watch', 'json'],
    },
    progress,
  ),
  onOnboarding(
    {
      name: 'correct',
      usage: ['correct <customerRef> --file correction.json'],
      summary: 'send corrected cardholder data after a reject; exits 1 if the cardholder step failed instead',
      options: ['file'],
    },
    correct,
  ),
  onOnboarding(
    {
      name: 'result',
      usage: ['result <customerRef> [--json]'],
      summary: 'wait for the onboarding and print what it created (exit 0), or why it failed (exit 1)',
      options: ['json'],
    },
    printOnboardingResult,
  ),
  onOnboarding(
    {
      name: 'activate-onboarding',
      usage: ['activate-onboarding <customerRef> --file activation-code.json [--pin-stdin] [--watch]'],
      summary: 'the physical card reached the customer: activate it (the activateCard Update)',
      options: ['file', 'pin-stdin', 'watch'],
    },
    activateOnboarding,
  ),
  onOnboarding(
    {
      name: 'retry',
      usage: ['retry <customerRef> [--force] [--watch]'],
      summary: 'resume an onboarding that failed, was cancelled or terminated: nothing made twice',
      details: [
        'A new run of the same workflow id continues from what exists at the provider (docs/exactly-once.md).',
        'Refused while it runs, once it completed, and for a failure resuming cannot change unless --force.',
      ],
      options: ['force', 'watch', 'task-queue'],
    },
    retry,
  ),
  onOnboarding(
    {
      name: 'cancel',
      usage: ['cancel <customerRef> [--json]'],
      summary: 'stop an onboarding that is still running; a mutation under way finishes first',
      options: ['json'],
    },
    cancel,
  ),
  {
    name: 'list',
    usage: [
      'list [--stage <stage>] [--card <cardNo>] [--holder <holderId>] [--customer <ref>] [--flow <flow>] [--limit N] [--json]',
    ],
    summary: 'find workflows through their search attributes (default: onboardings), as the Temporal UI filters them',
    details: [`Stages: ${ONBOARDING_STAGES.join(', ')}.`, `Flows: ${FLOWS.join(', ')}.`],
    options: ['stage', 'card', 'holder', 'customer', 'flow', 'limit', 'json'],
    run: (ctx) => list(ctx),
  },
];
