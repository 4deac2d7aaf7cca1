/**
 * Who may do what on the cluster (docs/operations.md, "Who may do what"): every caller presents
 * its certificate and its JWT (tools/scripts/make-tokens.sh), and cardflow's build of the server
 * (tools/deploy/temporal-server/) decides each call. Each role is shown allowed what it needs and
 * refused what it must not do, on real workflows: a backend starts, signals, describes and cancels
 * (the compensation runs) but may not terminate, reset or delete (which skip it), nor reach
 * another namespace; the UI and read-only operators only read; workers write but register no
 * namespace; an expired token and one signed by another key are refused. And the server's own
 * calls, through its internal frontend, still work: the reconciliation Schedule fires.
 */
import { createPrivateKey, createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { status } from '@grpc/grpc-js';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { ensureReconcileSchedule } from '../../client/reconciliation';
import { WorkflowTypes } from '../../domain/workflows';
import { type TemporalCaller, temporalCallerOptions, temporalToken } from '../../tools/scripts/cluster/temporal-auth';
import { temporalTlsOptions } from '../../tools/scripts/cluster/temporal-tls';
import { clusterSettings } from './support/control';
import { until } from './support/world';

type Outcome = 'allowed' | 'refused';

/** A workflow type no worker polls for: its runs stay open, so every call has a run to act on. */
const PROBE_TYPE = 'rolesProbe';
const taskQueue = `roles-${randomUUID()}`;
const connections: Connection[] = [];
const clients = new Map<string, Client>();
const matrix: string[] = [];

/** A client of the namespace connecting with `tls` and `apiKey` (none: the certificate alone). */
async function clientWith(name: string, options: Parameters<typeof Connection.connect>[0]): Promise<Client> {
  const known = clients.get(name);
  if (known) return known;
  const { address, namespace } = clusterSettings();
  const connection = await Connection.connect({ address, connectTimeout: 5_000, ...options });
  connections.push(connection);
  const client = new Client({ connection, namespace });
  clients.set(name, client);
  return client;
}

function callerClient(caller: TemporalCaller): Promise<Client> {
  return clientWith(caller, temporalCallerOptions(clusterSettings(), caller));
}

/**
 * What the server made of a call: refused is the authorizer's answer (PERMISSION_DENIED, or
 * UNAUTHENTICATED for a token it cannot verify); any other answer got past it (a workflow that
 * does not exist, or a reset of a run with nothing to reset to, are answered after the check).
 */
async function outcome(call: () => Promise<unknown>): Promise<{ outcome: Outcome; answer: string }> {
  try {
    await call();
    return { outcome: 'allowed', answer: 'ok' };
  } catch (error) {
    // The client's own error for a missing run, and a refusal of the connection's first call.
    if ((error as Error).name === 'WorkflowNotFoundError') return { outcome: 'allowed', answer: 'NOT_FOUND' };
    const { code = (error as { cause?: { code?: number } }).cause?.code } = error as { code?: number };
    if (code === status.PERMISSION_DENIED || code === status.UNAUTHENTICATED)
      return { outcome: 'refused', answer: status[code] };
    if (code === status.NOT_FOUND || code === status.INVALID_ARGUMENT)
      return { outcome: 'allowed', answer: status[code] };
    throw error;
  }
}

/** An open run of the probe type, started with the workers' credentials. */
async function openRun(): Promise<string> {
  const workflowId = `roles-probe-${randomUUID()}`;
  await (await callerClient('worker')).workflow.start(PROBE_TYPE, { taskQueue, workflowId });
  return workflowId;
}

type Action = (client: Client) => Promise<unknown>;
const ACTIONS: Record<string, Action> = {
  start: (c) => c.workflow.start(PROBE_TYPE, { taskQueue, workflowId: `roles-probe-${randomUUID()}` }),
  signal: async (c) => c.workflow.getHandle(await openRun()).signal('probe'),
  // Update and query of a run no worker serves would wait for one: a missing run is answered at
  // once.
  update: (c) => c.workflow.getHandle(`roles-missing-${randomUUID()}`).executeUpdate('probe'),
  query: (c) => c.workflow.getHandle(`roles-missing-${randomUUID()}`).query('probe'),
  describe: async (c) => c.workflow.getHandle(await openRun()).describe(),
  cancel: async (c) => c.workflow.getHandle(await openRun()).cancel(),
  terminate: async (c) => c.workflow.getHandle(await openRun()).terminate('roles test'),
  reset: async (c) =>
    c.workflowService.resetWorkflowExecution(
      temporal.api.workflowservice.v1.ResetWorkflowExecutionRequest.fromObject({
        namespace: c.options.namespace,
        workflowExecution: { workflowId: await openRun() },
        workflowTaskFinishEventId: 3,
        requestId: randomUUID(),
      }),
    ),
  delete: async (c) =>
    c.workflowService.deleteWorkflowExecution({
      namespace: c.options.namespace,
      workflowExecution: { workflowId: await openRun() },
    }),
  'list another namespace': (c) =>
    c.workflowService.listWorkflowExecutions({ namespace: 'temporal-system', pageSize: 1 }),
  'register a namespace': (c) =>
    c.workflowService.registerNamespace({
      namespace: `roles-${randomUUID().slice(0, 8)}`,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    }),
};
type ActionName = keyof typeof ACTIONS;

/** Each caller's expected answers (the role table of docs/operations.md). */
const EXPECTED: Record<string, Partial<Record<ActionName, Outcome>>> = {
  backend: {
    start: 'allowed',
    signal: 'allowed',
    update: 'allowed',
    query: 'allowed',
    describe: 'allowed',
    cancel: 'allowed',
    terminate: 'refused',
    reset: 'refused',
    delete: 'refused',
    'list another namespace': 'refused',
    'register a namespace': 'refused',
  },
  operator: {
    start: 'allowed',
    update: 'allowed',
    describe: 'allowed',
    cancel: 'allowed',
    terminate: 'refused',
    reset: 'refused',
    delete: 'refused',
    'list another namespace': 'refused',
  },
  worker: {
    start: 'allowed',
    signal: 'allowed',
    terminate: 'allowed',
    reset: 'allowed',
    'list another namespace': 'refused',
    'register a namespace': 'refused',
  },
  webhooks: { signal: 'allowed', describe: 'allowed', terminate: 'allowed', 'register a namespace': 'refused' },
  reader: { describe: 'allowed', query: 'allowed', signal: 'refused', cancel: 'refused', start: 'refused' },
  ui: {
    describe: 'allowed',
    'list another namespace': 'allowed',
    signal: 'refused',
    cancel: 'refused',
    terminate: 'refused',
    start: 'refused',
  },
  'ui certificate, no token': { describe: 'allowed', signal: 'refused', terminate: 'refused' },
  'client certificate, no token': { describe: 'refused', start: 'refused' },
  setup: { 'register a namespace': 'allowed', terminate: 'allowed', 'list another namespace': 'allowed' },
  'expired token': { describe: 'refused', start: 'refused' },
  'token of another key': { describe: 'refused', start: 'refused' },
};

/**
 * A JWT like make-tokens.sh's, with `expiresIn` seconds (negative: expired) and signed by `key`.
 */
function token(key: KeyObject, kid: string, expiresIn: number): string {
  const { namespace } = clusterSettings();
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64({
    iss: 'cardflow',
    sub: 'cardflow-roles-test',
    permissions: [`${namespace}:write`],
    iat: now - 7200,
    exp: now + expiresIn,
  })}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(key).toString('base64url')}`;
}

async function clientOf(name: string): Promise<Client> {
  const { tlsDir, authDir } = clusterSettings();
  const kid = readFileSync(join(authDir, 'current-kid'), 'utf8').trim();
  switch (name) {
    case 'ui certificate, no token':
      return clientWith(name, { tls: temporalTlsOptions(tlsDir, 'ui') });
    case 'client certificate, no token':
      return clientWith(name, { tls: temporalTlsOptions(tlsDir, 'client') });
    case 'expired token': {
      const key = createPrivateKey(readFileSync(join(authDir, 'keys', `${kid}.pem`)));
      return clientWith(name, { tls: temporalTlsOptions(tlsDir, 'worker'), apiKey: token(key, kid, -3600) });
    }
    case 'token of another key': {
      // The same key id, so the server looks the key up and the signature alone fails.
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      return clientWith(name, { tls: temporalTlsOptions(tlsDir, 'worker'), apiKey: token(privateKey, kid, 3600) });
    }
    default:
      return callerClient(name as TemporalCaller);
  }
}

afterAll(async () => {
  console.log(`roles as run (caller: action -> outcome, the server's answer):\n${matrix.join('\n')}`);
  await Promise.all(connections.map((c) => c.close()));
});

describe.each(Object.keys(EXPECTED))('%s', (caller) => {
  it.each(Object.entries(EXPECTED[caller]!))('%s: %s', async (action, expected) => {
    // Connecting is part of the call: a token the server cannot verify is refused at the first one.
    const result = await outcome(async () => ACTIONS[action]!(await clientOf(caller)));
    matrix.push(`${caller}: ${action} -> ${result.outcome} (${result.answer})`);
    expect(result.outcome).toBe(expected);
  });
});

it('the tokens make-tokens.sh issued carry each caller its own subject', () => {
  const { authDir } = clusterSettings();
  const subject = (caller: TemporalCaller) =>
    (JSON.parse(Buffer.from(temporalToken(authDir, caller).split('.')[1]!, 'base64url').toString()) as { sub: string })
      .sub;
  expect(['worker', 'backend', 'ui', 'setup'].map((c) => subject(c as TemporalCaller))).toEqual([
    'cardflow-worker',
    'cardflow-backend',
    'cardflow-ui',
    'cardflow-setup',
  ]);
});

it("the server's own calls still work: the reconciliation Schedule, created as the workers create it, fires", async () => {
  const scheduleId = `roles-reconcile-${randomUUID()}`;
  const worker = await callerClient('worker');
  // Hourly, as deployed; a trigger stands in for the top of the hour. The scheduler is a system
  // workflow whose start of the action goes through the internal frontend.
  await ensureReconcileSchedule(worker, { intervalMs: 3_600_000, config: {}, taskQueue, scheduleId });
  const schedule = worker.schedule.getHandle(scheduleId);
  await schedule.trigger();
  const fired = await until(
    () => schedule.describe(),
    (d) => d.info.recentActions.length > 0,
    { timeoutMs: 30_000 },
  );
  // The action's run, the schedule's workflow id and the time it fired: a backend reads it.
  const { workflowId } = fired.info.recentActions[0]!.action.workflow;
  expect(workflowId.startsWith(`${scheduleId}-run-`)).toBe(true);
  const run = await (await callerClient('backend')).workflow.getHandle(workflowId).describe();
  expect(run.type).toBe(WorkflowTypes.reconciliation);
  await worker.schedule.getHandle(scheduleId).delete();
});

it("the server's system workflows run in temporal-system (the scanners), started through the internal frontend", async () => {
  const setup = await callerClient('setup');
  const types = await until(
    async () => {
      const { executions } = await setup.workflowService.listWorkflowExecutions({
        namespace: 'temporal-system',
        query: "ExecutionStatus = 'Running'",
      });
      return executions.map((e) => e.type?.name ?? '');
    },
    (names) => names.some((name) => name.includes('scanner')),
    { timeoutMs: 60_000 },
  );
  console.log(`running in temporal-system: ${[...new Set(types)].join(', ')}`);
  expect(types).toContain('temporal-sys-tq-scanner-workflow');
});
