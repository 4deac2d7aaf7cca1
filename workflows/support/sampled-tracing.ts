/**
 * OpenTelemetry in workflows, for the runs whose trace is sampled only: the traced bundle's
 * workflow interceptors (workers/create-worker.ts). OpenTelemetry's own workflow interceptors
 * build a tracer provider for every run and export every span through a sink, and the SDK
 * evaluates their modules anew for each run: in bench (a) that was most of what tracing cost,
 * paid for every workflow whether anyone would ever look at its trace or not.
 *
 * Here a run loads them when its start carries a sampled trace context (a backend's start whose
 * trace its sampler kept, a parent workflow that is traced), or when a signal or update does (a
 * sampled webhook receipt), and delegates to them from then on. A run without one loads nothing
 * and pays a header lookup per call. The decision is head sampling made where the trace begins
 * (the backend, the receiver: telemetry/sampler.ts), which the workflow follows: a start's
 * unsampled context is handed on unchanged to the run's activities, children and continuation,
 * so they do not trace either. A workflow started with no trace context (by a schedule, by a
 * backend that does not trace) is not traced inside; its activities' spans begin traces of their
 * own on the worker.
 *
 * Replays decide alike (the headers are in the history), and spans are never commands: histories
 * replay the same with or without this interceptor.
 */
import {
  defaultPayloadConverter,
  type Headers,
  type Next,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
  type WorkflowInterceptorsFactory,
  type WorkflowInternalsInterceptor,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

/** The header OpenTelemetry's interceptors carry the W3C trace context in. */
const TRACE_HEADER = '_tracer-data';

/** `version-traceid-spanid-flags` (W3C Trace Context); bit 0 of the flags is "sampled". */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-([0-9a-f]{2})$/;

/** True when `headers` carry a trace context whose sampled flag is set. */
export function sampledTraceIn(headers: Headers | undefined): boolean {
  const payload = headers?.[TRACE_HEADER];
  if (!payload) return false;
  let carrier: unknown;
  try {
    carrier = defaultPayloadConverter.fromPayload(payload);
  } catch {
    return false;
  }
  const traceparent = (carrier as { traceparent?: unknown } | null)?.traceparent;
  const flags = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent.trim())?.[1] : undefined;
  return flags !== undefined && (parseInt(flags, 16) & 1) === 1;
}

type Loaded = Required<Pick<WorkflowInterceptors, 'inbound' | 'outbound' | 'internals'>>;

/** One run's OpenTelemetry interceptors, loaded the first time a sampled trace context arrives. */
class RunTracing {
  private loaded?: {
    inbound: WorkflowInboundCallsInterceptor;
    outbound: WorkflowOutboundCallsInterceptor;
    internals: WorkflowInternalsInterceptor;
  };
  /** The start's trace context when it was not sampled: what the run's own calls carry on. */
  private unsampled?: Headers[string];

  /** At the start: loads tracing when its context is sampled, else keeps the context to hand on. */
  start(headers: Headers) {
    const loaded = this.use(headers);
    if (!loaded && headers[TRACE_HEADER]) this.unsampled = headers[TRACE_HEADER];
    return loaded;
  }

  /** `headers` with the start's unsampled trace context, for a call that starts work elsewhere. */
  handOn(headers: Headers): Headers {
    return this.unsampled && !headers[TRACE_HEADER] ? { ...headers, [TRACE_HEADER]: this.unsampled } : headers;
  }

  /** The loaded interceptors; loads them first when `headers` carry a sampled trace. */
  use(headers?: Headers) {
    if (!this.loaded && sampledTraceIn(headers)) {
      // Required here, not imported: the modules are evaluated only in the runs that trace.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const otel = require('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors') as {
        interceptors: () => Loaded;
      };
      const made = otel.interceptors();
      this.loaded = { inbound: made.inbound[0]!, outbound: made.outbound[0]!, internals: made.internals[0]! };
    }
    return this.loaded;
  }
}

class SampledInbound implements WorkflowInboundCallsInterceptor {
  constructor(private readonly run: RunTracing) {}

  execute: NonNullable<WorkflowInboundCallsInterceptor['execute']> = (input, next) => {
    const otel = this.run.start(input.headers)?.inbound;
    return otel?.execute ? otel.execute(input, next) : next(input);
  };

  handleSignal: NonNullable<WorkflowInboundCallsInterceptor['handleSignal']> = (input, next) => {
    const otel = this.run.use(input.headers)?.inbound;
    return otel?.handleSignal ? otel.handleSignal(input, next) : next(input);
  };

  handleUpdate: NonNullable<WorkflowInboundCallsInterceptor['handleUpdate']> = (input, next) => {
    const otel = this.run.use(input.headers)?.inbound;
    return otel?.handleUpdate ? otel.handleUpdate(input, next) : next(input);
  };

  validateUpdate: NonNullable<WorkflowInboundCallsInterceptor['validateUpdate']> = (input, next) => {
    // Validators and queries are not replayed: they never decide whether the run traces.
    const otel = this.run.use()?.inbound;
    return otel?.validateUpdate ? otel.validateUpdate(input, next) : next(input);
  };

  handleQuery: NonNullable<WorkflowInboundCallsInterceptor['handleQuery']> = (input, next) => {
    const otel = this.run.use()?.inbound;
    return otel?.handleQuery ? otel.handleQuery(input, next) : next(input);
  };
}

/**
 * Delegates an outbound call to OpenTelemetry's interceptor once the run traces; until then a
 * call that starts work elsewhere (`handsOn`) carries the start's unsampled context.
 */
function outbound<K extends keyof WorkflowOutboundCallsInterceptor>(
  run: RunTracing,
  method: K,
  handsOn = false,
): NonNullable<WorkflowOutboundCallsInterceptor[K]> {
  const call = (input: { headers?: Headers }, next: (input: unknown) => unknown) => {
    const otel = run.use()?.outbound as Record<string, ((i: unknown, n: unknown) => unknown) | undefined> | undefined;
    const own = otel?.[method];
    if (own) return own.call(otel, input, next);
    return next(handsOn && input.headers ? { ...input, headers: run.handOn(input.headers) } : input);
  };
  return call as unknown as NonNullable<WorkflowOutboundCallsInterceptor[K]>;
}

class SampledInternals implements WorkflowInternalsInterceptor {
  constructor(private readonly run: RunTracing) {}

  dispose(
    input: Parameters<NonNullable<WorkflowInternalsInterceptor['dispose']>>[0],
    next: Next<WorkflowInternalsInterceptor, 'dispose'>,
  ): void {
    const otel = this.run.use()?.internals;
    if (otel?.dispose) otel.dispose(input, next);
    else next(input);
  }
}

export const interceptors: WorkflowInterceptorsFactory = () => {
  const run = new RunTracing();
  return {
    inbound: [new SampledInbound(run)],
    outbound: [
      {
        scheduleActivity: outbound(run, 'scheduleActivity', true),
        scheduleLocalActivity: outbound(run, 'scheduleLocalActivity', true),
        startNexusOperation: outbound(run, 'startNexusOperation'),
        startChildWorkflowExecution: outbound(run, 'startChildWorkflowExecution', true),
        signalWorkflow: outbound(run, 'signalWorkflow', true),
        continueAsNew: outbound(run, 'continueAsNew', true),
        getLogAttributes: outbound(run, 'getLogAttributes'),
      },
    ],
    internals: [new SampledInternals(run)],
  };
};
