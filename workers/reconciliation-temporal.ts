/**
 * The Temporal side of reconciliation (activities/reconciliation/temporal-port.ts), built by the
 * worker from its own connection and data converter: owners are found on CardflowOrderNos, a missed
 * event goes the webhook receiver's own way (`deliverToOwners`: the card's workflow by
 * signal-with-start, then the forwarder with the lookups `routeEvent` gives it, the very signals
 * its webhook would have sent), what running workflows will spend and what open stranded-money
 * records name are read from their inputs (each spending definition's `spends`).
 */
import type { DataConverter, Payload } from '@temporalio/common';
import { Client, WorkflowNotFoundError, type ConnectionLike, type WorkflowExecutionInfo } from '@temporalio/client';
import type { OpenStrandedRecord, ReconcilePort, RunningSpender } from '../activities/reconciliation/temporal-port';
import type { OwnerRun } from '../domain/reconciliation-rules';
import type { ReconcileReport } from '../domain/reconciliation';
import type { StrandedMoneyInput } from '../domain/stranded-money';
import { ORDER_NOS_ATTRIBUTE } from '../domain/start-attributes';
import { CardflowCustomerRef, isQueryLiteral } from '../domain/search-attributes';
import type { AnyWorkflowDefinition, InputOf } from '../domain/workflow-definition';
import { childWorkflowId } from '../domain/workflow-ids';
import { cardEntityWorkflow, reconciliationWorkflow, strandedMoneyWorkflow, WORKFLOWS } from '../domain/workflows';
import { createRouteForwarder } from '../webhooks/forwarder';
import type { RouteStore } from '../platform/storage/route-store';
import {
  cardDelivery,
  type CardEntityDelivery,
  createCardEntityDelivery,
  deliverToOwners,
} from '../webhooks/card-route';
import type { CardEntityStartContext } from '../domain/card-entity-start';

/** merchantOrderNos per visibility query (`CardflowOrderNos IN (...)`). */
const OWNER_BATCH = 50;
/** Running spending workflows read per reconciliation for commitments. */
const MAX_COMMITTED_WORKFLOWS = 1000;
/** Open stranded-money records read per reconciliation (each is a finding until acknowledged). */
const MAX_STRANDED_RECORDS = 1000;
/**
 * Completed reconciliation runs looked at to find where the last one that continued the chain
 * ended.
 */
const PREVIOUS_RUNS = 10;

export interface ReconcilePortOptions {
  connection: ConnectionLike;
  namespace: string;
  /** The worker's task queue, where a card's workflow that a re-delivery starts runs. */
  taskQueue: string;
  /**
   * What such a card workflow is given beyond its card number (as the receiver's delivery gives
   * it).
   */
  cardEntityInput?: CardEntityStartContext;
  /**
   * The worker's data converter: signals and inputs are encoded as every other cardflow payload.
   */
  dataConverter?: DataConverter;
  /**
   * Where the worker's activities record routes: a re-delivered event finds its owners as the
   * receiver's would.
   */
  routes: Pick<RouteStore, 'owners' | 'markClosed'>;
}

/**
 * The workflows that move money of their own, by type: each definition's `spends` reads what from
 * its input.
 */
const SPENDERS: Readonly<Record<string, AnyWorkflowDefinition>> = Object.fromEntries(
  (Object.values(WORKFLOWS) as readonly AnyWorkflowDefinition[]).flatMap((d) => (d.spends ? [[d.type, d]] : [])),
);

/**
 * `AND TaskQueue = '…'` for a queue name a query may carry literally; none for another (never
 * widened, only unscoped).
 */
function onQueue(taskQueue: string): string {
  return /^[A-Za-z0-9_.:-]{1,200}$/.test(taskQueue) ? ` AND TaskQueue = '${taskQueue}'` : '';
}

function ownerRun(info: WorkflowExecutionInfo): OwnerRun {
  const ref = info.typedSearchAttributes.get(CardflowCustomerRef);
  return {
    workflowId: info.workflowId,
    runId: info.runId,
    status: info.status.name,
    // A late deposit is judged on when its address's owners closed and whose they were.
    ...(info.closeTime ? { closeTime: info.closeTime.getTime() } : {}),
    ...(ref ? { customerRef: ref } : {}),
  };
}

/** The input a workflow was started with, decoded as the client decodes payloads. */
async function startInputOf(client: Client, info: WorkflowExecutionInfo): Promise<Record<string, unknown> | undefined> {
  const history = await client.workflow.getHandle(info.workflowId, info.runId).fetchHistory();
  const payloads = (history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? []) as Payload[];
  if (!payloads.length) return undefined;
  const { payloadCodecs, payloadConverter } = client.options.loadedDataConverter;
  let decoded = payloads;
  for (const codec of [...payloadCodecs].reverse()) decoded = await codec.decode(decoded);
  return payloadConverter.fromPayload<Record<string, unknown>>(decoded[0]!);
}

/**
 * A card's own provider operation sent to the card's workflow, started when nobody follows the
 * card; says whether this delivery started it.
 */
async function deliverToCardWorkflow(
  client: Client,
  cardEntities: CardEntityDelivery,
  event: Parameters<ReconcilePort['redeliver']>[0],
): Promise<{ workflowId: string; started: boolean } | undefined> {
  const delivery = cardDelivery(event);
  if (!delivery?.start) return undefined;
  const running = await client.workflow
    .getHandle(cardEntityWorkflow.id(delivery.cardNo))
    .describe()
    .then(
      (described) => described.status.name === 'RUNNING',
      (error: unknown) => {
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      },
    );
  const workflowId = await cardEntities.deliver(event, delivery);
  return workflowId ? { workflowId, started: !running } : undefined;
}

export function createReconcilePort(opts: ReconcilePortOptions): ReconcilePort {
  const client = new Client({
    connection: opts.connection,
    namespace: opts.namespace,
    ...(opts.dataConverter ? { dataConverter: opts.dataConverter } : {}),
  });
  const forwarder = createRouteForwarder(client, { routes: opts.routes });
  // The receiver's card-level path: a card's own event starts the card's workflow when it is not
  // running.
  const cardEntities = createCardEntityDelivery(client, {
    taskQueue: opts.taskQueue,
    ...(opts.cardEntityInput ? { input: opts.cardEntityInput } : {}),
  });

  const startInput = (info: WorkflowExecutionInfo) => startInputOf(client, info);

  return {
    async ownersOf(orderNos) {
      const owners: Record<string, OwnerRun[]> = {};
      // Only values a visibility query may carry literally; cardflow's keys always are.
      const keys = orderNos.filter(isQueryLiteral);
      for (let i = 0; i < keys.length; i += OWNER_BATCH) {
        const batch = new Set(keys.slice(i, i + OWNER_BATCH));
        const query = `${ORDER_NOS_ATTRIBUTE} IN (${[...batch].map((no) => `'${no}'`).join(', ')})`;
        for await (const info of client.workflow.list({ query })) {
          const listed = info.searchAttributes[ORDER_NOS_ATTRIBUTE];
          for (const no of Array.isArray(listed) ? listed : []) {
            if (typeof no === 'string' && batch.has(no)) (owners[no] ??= []).push(ownerRun(info));
          }
        }
      }
      return owners;
    },

    redeliver: (event) => deliverToOwners(event, { cardEntities, forwarder }),

    deliverToCard: (event) => deliverToCardWorkflow(client, cardEntities, event),

    async runningSpenders(taskQueue) {
      const flows = [...new Set(Object.values(SPENDERS).map((definition) => definition.flow))];
      const spenders: RunningSpender[] = [];
      let seen = 0;
      for await (const info of client.workflow.list({
        query: `CardflowFlow IN (${flows.map((f) => `'${f}'`).join(', ')}) AND ExecutionStatus = 'Running'${onQueue(taskQueue)}`,
      })) {
        if (++seen > MAX_COMMITTED_WORKFLOWS) break;
        const definition = Object.hasOwn(SPENDERS, info.type) ? SPENDERS[info.type] : undefined;
        if (!definition) continue;
        // The input its definition's `spends` is typed by, as the workflow was started with it.
        const input = (await startInput(info)) as InputOf<typeof definition> | undefined;
        const spending = input === undefined ? undefined : definition.spends?.(input);
        if (typeof spending?.amount !== 'string') continue;
        const spender: RunningSpender = {
          workflowId: info.workflowId,
          workflowType: info.type,
          amount: spending.amount,
          ...(typeof spending.accountId === 'string' ? { accountId: spending.accountId } : {}),
        };
        if (spending.throughChild) {
          const child = client.workflow.getHandle(childWorkflowId(info.workflowId, spending.throughChild));
          spender.spendsThroughChild = await child.describe().then(
            () => true,
            (error: unknown) => {
              if (error instanceof WorkflowNotFoundError) return false;
              throw error;
            },
          );
        }
        spenders.push(spender);
      }
      return spenders;
    },

    async openStrandedRecords(taskQueue) {
      const records: OpenStrandedRecord[] = [];
      for await (const info of client.workflow.list({
        query: `CardflowFlow = '${strandedMoneyWorkflow.flow}' AND ExecutionStatus = 'Running'${onQueue(taskQueue)}`,
      })) {
        if (records.length >= MAX_STRANDED_RECORDS) break;
        const input = (await startInput(info)) as StrandedMoneyInput | undefined;
        if (input && Array.isArray(input.left)) records.push({ workflowId: info.workflowId, input });
      }
      return records;
    },

    async previousWindowEnd(taskQueue) {
      let end: number | undefined;
      let seen = 0;
      for await (const info of client.workflow.list({
        query: `CardflowFlow = '${reconciliationWorkflow.flow}' AND ExecutionStatus = 'Completed'${onQueue(taskQueue)}`,
      })) {
        if (++seen > PREVIOUS_RUNS) break;
        const report = (await client.workflow.getHandle(info.workflowId, info.runId).result()) as
          ReconcileReport | undefined;
        if (report?.sinceGiven) continue;
        const windowEnd = report?.window?.end;
        if (typeof windowEnd === 'number' && (end === undefined || windowEnd > end)) end = windowEnd;
      }
      return end;
    },
  };
}
