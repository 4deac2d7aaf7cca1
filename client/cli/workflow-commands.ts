/**
 * The `cardflow` commands of the card and fund workflows: activate a physical card, transfer
 * between accounts, create a shared account, fund the wallet on chain, operate a card, and the
 * status of any cardflow workflow. Every input is validated (and a PIN sealed) before Temporal is
 * contacted. `--request` is the idempotency key of a card operation: the same id again returns the
 * first answer and the provider acts once; the file's `transferRef` / `fundingRef` / card number /
 * account name play that role for the start commands.
 */
import { type Client, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { PIN_RE } from '../../provider/rules';
import type { CardEntityOutcome } from '../../domain/card-entity';
import { activateReissuedCard, CardReissueRefusedError, reissueCard, startCardReissue } from '../reissue';
import { REPLACED_CARD_FREEZES, type CardReissueResult, type ReplacedCardFreeze } from '../../domain/card-reissue';
import { activationInput, startActivation } from '../activation';
import {
  cardRequest,
  depositToCard,
  freezeCard,
  getCardSnapshot,
  refreshCard,
  requestCardUnblock,
  unfreezeCard,
  updateCardPin,
  type CardRequestKind,
} from '../card-entity';
import {
  type CliContext,
  type Command,
  ExitCodes,
  follow,
  printOutcome,
  printResult,
  readJsonFile,
  reportStart,
  UsageError,
} from './context';
import { parseField } from '../inputs';
import { cardNoField } from '../../domain/fields';
import { describeCardOutcome, describeCardSnapshot } from '../describe';
import { merchantPublicKeyFrom } from '../sealing';
import { workflowClients } from '../definitions';
import type { StartRequest } from '../../domain/workflow-definition';
import { awaitDepositAddress } from '../wallet-funding';
import { readWorkflowStatus } from '../workflow-status';
import { cardEntityWorkflowId } from '../../domain/workflow-ids';

const CARD_ACTIONS: Record<string, CardRequestKind | 'status' | 'unblock' | 'reissue' | 'activateReissued'> = {
  freeze: 'freeze',
  unfreeze: 'unfreeze',
  pin: 'updatePin',
  deposit: 'deposit',
  status: 'status',
  unblock: 'unblock',
  reissue: 'reissue',
  'activate-reissued': 'activateReissued',
};

/** The PIN from standard input (first line), or undefined without --pin-stdin. */
export async function pinFromStdin(ctx: CliContext): Promise<string | undefined> {
  if (!ctx.values['pin-stdin']) return undefined;
  if (!ctx.io.readStdin) throw new UsageError('--pin-stdin: no standard input available');
  const pin = (await ctx.io.readStdin()).split(/\r?\n/)[0]?.trim() ?? '';
  if (!PIN_RE.test(pin)) throw new UsageError('--pin-stdin: the first line of standard input must be exactly 6 digits');
  return pin;
}

const needFile = (ctx: CliContext, command: string, example: string): string => {
  if (!ctx.values.file) throw new UsageError(`${command} needs --file <${example}>`);
  return ctx.values.file;
};

/** Starts, reports and optionally follows; the shape shared by the start commands. */
async function started(ctx: CliContext, start: Promise<{ workflowId: string; started: boolean }>): Promise<number> {
  const s = await start;
  reportStart(ctx, s);
  return ctx.values.watch ? follow(ctx, s.workflowId) : 0;
}

async function activate(ctx: CliContext): Promise<number> {
  const request = await readJsonFile(needFile(ctx, 'activate', 'card-activation.json'));
  const pin = await pinFromStdin(ctx);
  if (pin !== undefined && request !== null && typeof request === 'object' && 'pin' in request)
    throw new UsageError('activate: the PIN is in the file and on standard input; give it once');
  const withPin = pin === undefined ? request : { ...(request as object), pin };
  // The key is read only once the PIN passed its checks (a missing key is then the one problem
  // left).
  const input = activationInput(withPin, () => merchantPublicKeyFrom(ctx.config));
  return started(ctx, startActivation(await ctx.client(), input, ctx.startOptions));
}

async function fundWallet(ctx: CliContext): Promise<number> {
  const fundings = workflowClients.walletFunding;
  const request = fundings.parse(await readJsonFile(needFile(ctx, 'fund-wallet', 'funding.json')));
  const s = await fundings.start(await ctx.client(), request, ctx.startOptions);
  reportStart(ctx, s);
  const status = await awaitDepositAddress(
    await ctx.client(),
    request.fundingRef,
    ctx.io.signal ? { signal: ctx.io.signal } : {},
  );
  // An existing funding that already ended is reported as such, not as an address to pay.
  if (status.stage === 'completed' || status.stage === 'failed') return printOutcome(ctx, s.workflowId);
  if (status.address)
    ctx.io.out(`pay ${request.expectedAmount ?? 'the amount'} ${request.coinKey} to ${status.address}`);
  return ctx.values.watch ? follow(ctx, s.workflowId) : 0;
}

async function card(ctx: CliContext, action: string | undefined, cardNo: string | undefined): Promise<number> {
  const kind = action && Object.hasOwn(CARD_ACTIONS, action) ? CARD_ACTIONS[action] : undefined;
  if (!kind) throw new UsageError(`card needs one of ${Object.keys(CARD_ACTIONS).join(', ')}`);
  if (!cardNo) throw new UsageError(`card ${action} needs a <cardNo>`);
  const opts = { ...ctx.startOptions };
  if (kind === 'status') {
    parseField(cardNoField, 'cardNo', cardNo);
    if (ctx.values.watch) {
      await refreshOrRead(ctx, cardNo, false);
      return follow(ctx, cardEntityWorkflowId(cardNo));
    }
    const snapshot = await refreshOrRead(ctx, cardNo, ctx.values.refresh === true);
    printResult(ctx, snapshot, () => describeCardSnapshot(snapshot));
    return ExitCodes.done;
  }
  if (kind === 'reissue') return reissue(ctx, cardNo);
  if (kind === 'activateReissued') return activateReissued(ctx, cardNo);
  if (!ctx.values.request)
    throw new UsageError(
      `card ${action} needs --request <id> (its idempotency key: the same id again does not act twice)`,
    );
  const base = { requestId: ctx.values.request };
  // Each branch validates (and seals) now, and returns the call to make once connected.
  let send: (client: Client) => Promise<CardEntityOutcome>;
  if (kind === 'unblock') {
    if (!ctx.values.file)
      throw new UsageError('card unblock needs --file <ref> (the reference `cardflow files put <path>` printed)');
    const request = { ...base, files: [{ ref: ctx.values.file }] };
    send = (client) => requestCardUnblock(client, cardNo, request, opts);
  } else if (kind === 'updatePin') {
    const pin = await pinFromStdin(ctx);
    if (pin === undefined) throw new UsageError('card pin needs --pin-stdin (the new PIN on standard input)');
    const request = cardRequest('updatePin', cardNo, { ...base, pin }, () => merchantPublicKeyFrom(ctx.config));
    send = (client) => updateCardPin(client, cardNo, request, opts);
  } else if (kind === 'deposit') {
    if (!ctx.values.amount || !ctx.values['card-type'])
      throw new UsageError('card deposit needs --amount <decimal> and --card-type <id>');
    const request = cardRequest('deposit', cardNo, {
      ...base,
      amount: ctx.values.amount,
      cardTypeId: ctx.values['card-type'],
    });
    send = (client) => depositToCard(client, cardNo, request, opts);
  } else {
    const request = cardRequest(kind, cardNo, {
      ...base,
      ...(ctx.values.remark === undefined ? {} : { clientRemark: ctx.values.remark }),
    });
    send = (client) => (kind === 'freeze' ? freezeCard : unfreezeCard)(client, cardNo, request, opts);
  }
  const client = await ctx.client();
  try {
    const outcome = await send(client);
    ctx.io.out(describeCardOutcome(outcome));
    return 0;
  } catch (error) {
    if (!(error instanceof WorkflowUpdateFailedError)) throw error;
    const cause = error.cause as { type?: string; message?: string } | undefined;
    ctx.io.err(
      `card ${action} of ${cardNo} refused or failed: ${cause?.type ? `${cause.type}: ` : ''}${cause?.message ?? error.message}`,
    );
    return 1;
  }
}

/**
 * The activation request of `--file`, with the PIN of `--pin-stdin` when given; undefined without
 * `--file`.
 */
async function activationFromFile(ctx: CliContext, command: string): Promise<unknown> {
  if (!ctx.values.file) return undefined;
  const request = await readJsonFile(ctx.values.file);
  const pin = await pinFromStdin(ctx);
  if (pin !== undefined && request !== null && typeof request === 'object' && 'pin' in request)
    throw new UsageError(`${command}: the PIN is in the file and on standard input; give it once`);
  return pin === undefined ? request : { ...(request as object), pin };
}

/** The merchant public key, read only when the request carries a clear PIN to seal. */
function sealingFor(ctx: CliContext, request: unknown) {
  const clearPin = request !== null && typeof request === 'object' && 'pin' in request;
  return clearPin ? { merchantPublicKey: merchantPublicKeyFrom(ctx.config) } : {};
}

function describeReissue(cardNo: string, made: CardReissueResult): string {
  const old = made.oldCard;
  const oldLine =
    old.outcome === 'frozen'
      ? `card ${cardNo} frozen`
      : `card ${cardNo} not frozen (${old.status ?? '?'}): ${old.reason}`;
  return `card ${cardNo} reissued as card ${made.card.cardNo} (${made.activation ? 'activated' : made.card.cardStatus}); ${oldLine}`;
}

/**
 * `card reissue <cardNo>`: the card that replaces it (one per old card), refused while the old one
 * holds money. A physical card without `--file` is started and left awaiting its delivery.
 */
async function reissue(ctx: CliContext, cardNo: string): Promise<number> {
  const freezeOld = ctx.values['freeze-old'];
  if (freezeOld !== undefined && !(REPLACED_CARD_FREEZES as readonly string[]).includes(freezeOld))
    throw new UsageError(`--freeze-old must be one of ${REPLACED_CARD_FREEZES.join(', ')}`);
  const activation = await activationFromFile(ctx, 'card reissue');
  const opts = {
    ...ctx.startOptions,
    ...(ctx.values.amount === undefined ? {} : { initialDeposit: ctx.values.amount }),
    ...(ctx.values['card-number'] === undefined ? {} : { cardNumber: ctx.values['card-number'] }),
    ...(freezeOld === undefined ? {} : { freezeOld: freezeOld as ReplacedCardFreeze }),
    ...(activation === undefined ? {} : { activation, ...sealingFor(ctx, activation) }),
  };
  try {
    const client = await ctx.client();
    if (opts.cardNumber !== undefined && activation === undefined) {
      const workflowId = await startCardReissue(client, cardNo, opts);
      ctx.io.out(
        `reissue ${workflowId} started; once the card reached the customer: cardflow card activate-reissued ${cardNo} --file <activation.json>`,
      );
      return ExitCodes.done;
    }
    const made = await reissueCard(client, cardNo, opts);
    printResult(ctx, made, () => describeReissue(cardNo, made));
    return ExitCodes.done;
  } catch (error) {
    if (!(error instanceof CardReissueRefusedError)) throw error;
    ctx.io.err(error.message);
    return ExitCodes.failed;
  }
}

/**
 * `card activate-reissued <oldCardNo> --file activation.json`: the reissued physical card arrived.
 */
async function activateReissued(ctx: CliContext, cardNo: string): Promise<number> {
  const request = await activationFromFile(ctx, 'card activate-reissued');
  if (request === undefined) throw new UsageError('card activate-reissued needs --file <activation.json>');
  const accepted = await activateReissuedCard(await ctx.client(), cardNo, request, sealingFor(ctx, request));
  printResult(ctx, accepted, () => `activation accepted (${accepted.route}): ${accepted.activationWorkflowId}`);
  return ExitCodes.done;
}

/**
 * The card's snapshot: the running workflow's query, or (with `refresh`, or when the card has no
 * running workflow yet) a fresh read through the `refresh` Update, which starts the workflow.
 */
async function refreshOrRead(ctx: CliContext, cardNo: string, refresh: boolean) {
  const client = await ctx.client();
  if (!refresh) {
    try {
      const description = await client.workflow.getHandle(cardEntityWorkflowId(cardNo)).describe();
      if (description.status.name === 'RUNNING' || description.status.name === 'COMPLETED')
        return await getCardSnapshot(client, cardNo);
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
  }
  return refreshCard(client, cardNo, ctx.startOptions);
}

async function status(ctx: CliContext, workflowId: string | undefined): Promise<number> {
  if (!workflowId) throw new UsageError('status needs a <workflowId>');
  if (ctx.values.watch) return follow(ctx, workflowId);
  const now = await readWorkflowStatus(await ctx.client(), workflowId);
  if (now.status === 'RUNNING' || !ctx.values.json)
    printResult(
      ctx,
      {
        workflowId,
        workflowType: now.workflowType,
        status: now.status,
        ...(now.view.query ? { progress: now.value } : {}),
      },
      () => `${workflowId} (${now.workflowType}): ${now.view.query ? now.line : now.status}`,
    );
  return now.status === 'RUNNING' ? ExitCodes.done : printOutcome(ctx, workflowId);
}

/**
 * `<name> --file <example> [--watch]` for each workflow whose definition has a start command
 * (domain/workflow-definition.ts `StartRequest.command`): the file is validated by the request
 * schema of the workflow's definition before Temporal is contacted, then started (idempotent by
 * the request's key) and optionally followed.
 */
const START_COMMANDS: readonly Command[] = Object.values(workflowClients).flatMap((workflow) => {
  const request: StartRequest = workflow.definition.request;
  const command = request.command;
  if (!command) return [];
  const { example, ...rest } = command;
  return [
    {
      ...rest,
      usage: [`${command.name} --file ${example} [--watch]`],
      options: ['file', 'watch', 'task-queue'],
      run: async (ctx: CliContext) => {
        const request = workflow.parse(await readJsonFile(needFile(ctx, command.name, example)));
        return started(ctx, workflow.start(await ctx.client(), request as never, ctx.startOptions));
      },
    },
  ];
});

/** The commands of the card and fund workflows. */
export const WORKFLOW_COMMANDS: readonly Command[] = [
  {
    name: 'activate',
    usage: ['activate --file card-activation.json [--pin-stdin] [--watch]'],
    summary: 'activate a physical card, by activation code (PIN on standard input) or by work order',
    details: [
      'The file is { cardNo, route: "activation_code" } or { cardNo, route: "work_order", workOrder: { files } }.',
      'The PIN is sealed with CARDFLOW_MERCHANT_PUBLIC_KEY(_FILE) before anything is sent, and never printed.',
    ],
    options: ['file', 'pin-stdin', 'watch', 'task-queue'],
    run: (ctx) => activate(ctx),
  },
  ...START_COMMANDS,
  {
    name: 'fund-wallet',
    usage: ['fund-wallet --file funding.json [--watch]'],
    summary: 'print the deposit address to pay, then credit the on-chain deposit (and move it on)',
    options: ['file', 'watch', 'task-queue'],
    run: (ctx) => fundWallet(ctx),
  },
  {
    name: 'card',
    usage: [
      'card freeze|unfreeze <cardNo> --request <id> [--remark <text>]',
      'card pin <cardNo> --request <id> --pin-stdin',
      'card deposit <cardNo> --request <id> --amount <decimal> --card-type <id>',
      'card status <cardNo> [--refresh] [--watch] [--json]',
      'card unblock <cardNo> --request <id> --file <ref>',
      'card reissue <cardNo> [--amount <initial deposit>] [--freeze-old <when_active|now>] [--json]',
      'card reissue <cardNo> --card-number <printed> [--file <activation.json>] [--pin-stdin]',
      'card activate-reissued <oldCardNo> --file <activation.json> [--pin-stdin]',
    ],
    summary: "operate a card through its workflow (card-<cardNo>); --request is the operation's idempotency key",
    options: [
      'request',
      'remark',
      'pin-stdin',
      'amount',
      'card-type',
      'card-number',
      'freeze-old',
      'file',
      'refresh',
      'watch',
      'json',
      'task-queue',
    ],
    run: (ctx, [action, cardNo]) => card(ctx, action, cardNo),
  },
  {
    name: 'status',
    usage: ['status <workflowId> [--watch] [--json]'],
    summary: 'where any cardflow workflow stands, by its id; its result or failure once it ended',
    options: ['watch', 'json'],
    run: (ctx, [workflowId]) => status(ctx, workflowId),
  },
];
