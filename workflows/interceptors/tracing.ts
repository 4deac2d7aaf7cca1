/**
 * OpenTelemetry in workflows, for the runs whose trace is sampled. Whether a run traces is read
 * from its history (the trace headers of its start, signals and Updates), never from the worker,
 * so a worker that exports spans and one that drops them run the same code on the same history.
 * Each wrapper returns the very promise the next interceptor returned and ends its span as a side
 * reaction: an `await` here would settle the caller a few microtasks later and reorder commands
 * (an Update completing after a timer its handler cancelled), which a non-tracing worker's replay
 * then fails. Until a sampled context arrives, each call passes straight through; a run started
 * without one (a schedule, a backend that does not trace) is not traced inside.
 */
import {
  ContinueAsNew,
  defaultPayloadConverter,
  workflowInfo,
  type Headers,
  type Next,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptorsFactory,
  type WorkflowInternalsInterceptor,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import type * as OtelApi from '@opentelemetry/api';
import type * as TraceBase from '@opentelemetry/sdk-trace-base';
import type * as ContextManagerModule from '@temporalio/interceptors-opentelemetry/lib/workflow/context-manager';
import type * as SpanExporterModule from '@temporalio/interceptors-opentelemetry/lib/workflow/span-exporter';
import type * as Instrumentation from '@temporalio/interceptors-opentelemetry/lib/instrumentation';

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

type Inbound = Required<
  Pick<WorkflowInboundCallsInterceptor, 'execute' | 'handleSignal' | 'handleUpdate' | 'validateUpdate' | 'handleQuery'>
>;
type Outbound = Required<
  Pick<
    WorkflowOutboundCallsInterceptor,
    | 'scheduleActivity'
    | 'scheduleLocalActivity'
    | 'startNexusOperation'
    | 'startChildWorkflowExecution'
    | 'signalWorkflow'
    | 'continueAsNew'
    | 'getLogAttributes'
  >
>;
interface Tracing {
  inbound: Inbound;
  outbound: Outbound;
  dispose(): void;
}

/**
 * The span wrappers over `tracer`: `traced` runs a call in a new span and hands back exactly what
 * the call returned, ending the span as a side reaction to it (never awaiting it).
 */
function spanWrappers(api: typeof OtelApi, tracer: OtelApi.Tracer) {
  const failed = (span: OtelApi.Span, error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    span.setStatus({ code: api.SpanStatusCode.ERROR, message });
    if (error instanceof Error) span.recordException(error);
    span.end();
  };
  const succeeded = (span: OtelApi.Span) => {
    span.setStatus({ code: api.SpanStatusCode.OK });
    span.end();
  };
  const acceptContinueAsNew = (span: OtelApi.Span, error: unknown) =>
    error instanceof ContinueAsNew ? succeeded(span) : failed(span, error);

  /**
   * `call` inside a new span (child of `parent`, else of the active context); returns what `call`
   * returns.
   */
  function traced<T>(
    name: string,
    parent: OtelApi.Context | undefined,
    call: (span: OtelApi.Span) => T,
    onError: (span: OtelApi.Span, error: unknown) => void = failed,
  ): T {
    const context = parent ?? api.context.active();
    const span = tracer.startSpan(name, undefined, context);
    let result: T;
    try {
      result = api.context.with(api.trace.setSpan(context, span), () => call(span));
    } catch (error) {
      onError(span, error);
      throw error;
    }
    if (result instanceof Promise)
      result.then(
        () => succeeded(span),
        (error: unknown) => onError(span, error),
      );
    else succeeded(span);
    return result;
  }

  return { traced, acceptContinueAsNew };
}

// Required where used, not imported: the modules are evaluated only in the runs that trace.
/* eslint-disable @typescript-eslint/no-require-imports */
/**
 * Spans that end when the traced call's own result settles: each wrapper hands back exactly what
 * the next interceptor returned. Same span names, attributes and propagation as OpenTelemetry's
 * interceptors, and the same span exporter (the worker's `exporter` sink).
 */
function loadTracing(): Tracing {
  // Patches the workflow isolate for OpenTelemetry (`performance`, ...) before any of its modules
  // loads.
  require('@temporalio/interceptors-opentelemetry/lib/workflow/runtime');
  const api = require('@opentelemetry/api') as typeof OtelApi;
  const { BasicTracerProvider, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof TraceBase;
  const { ContextManager } =
    require('@temporalio/interceptors-opentelemetry/lib/workflow/context-manager') as typeof ContextManagerModule;
  const { SpanExporter } =
    require('@temporalio/interceptors-opentelemetry/lib/workflow/span-exporter') as typeof SpanExporterModule;
  const { extractContextFromHeaders, headersWithContext, nexusHeadersWithContext, UPDATE_ID_ATTR_KEY } =
    require('@temporalio/interceptors-opentelemetry/lib/instrumentation') as typeof Instrumentation;

  const contextManager = new ContextManager();
  const provider = new BasicTracerProvider();
  provider.addSpanProcessor(new SimpleSpanProcessor(new SpanExporter()));
  provider.register({ contextManager });
  const tracer = provider.getTracer('@temporalio/interceptor-workflow');

  const { traced, acceptContinueAsNew } = spanWrappers(api, tracer);

  const inbound: Inbound = {
    execute: (input, next) =>
      traced(
        `RunWorkflow:${workflowInfo().workflowType}`,
        extractContextFromHeaders(input.headers),
        () => next(input),
        acceptContinueAsNew,
      ),
    handleSignal: (input, next) =>
      traced(`HandleSignal:${input.signalName}`, extractContextFromHeaders(input.headers), () => next(input)),
    handleUpdate: (input, next) =>
      traced(`HandleUpdate:${input.name}`, extractContextFromHeaders(input.headers), (span) => {
        span.setAttribute(UPDATE_ID_ATTR_KEY, input.updateId);
        return next(input);
      }),
    validateUpdate: (input, next) =>
      traced(`ValidateUpdate:${input.name}`, extractContextFromHeaders(input.headers), (span) => {
        span.setAttribute(UPDATE_ID_ATTR_KEY, input.updateId);
        next(input);
      }),
    handleQuery: (input, next) =>
      traced(`HandleQuery:${input.queryName}`, extractContextFromHeaders(input.headers), () => next(input)),
  };
  /**
   * A call that starts work elsewhere, in a span named `name`, the span's context in the work's
   * headers.
   */
  const handingOn = <I extends { headers: Headers }, R>(
    name: string,
    input: I,
    next: (input: I) => R,
    onError?: (span: OtelApi.Span, error: unknown) => void,
  ): R => traced(name, undefined, () => next({ ...input, headers: headersWithContext(input.headers) }), onError);

  const outbound: Outbound = {
    scheduleActivity: (input, next) => handingOn(`StartActivity:${input.activityType}`, input, next),
    scheduleLocalActivity: (input, next) => handingOn(`StartActivity:${input.activityType}`, input, next),
    startNexusOperation: (input, next) =>
      traced(`StartNexusOperation:${input.service}/${input.operation}`, undefined, () =>
        next({ ...input, headers: nexusHeadersWithContext(input.headers) }),
      ),
    startChildWorkflowExecution: (input, next) => handingOn(`StartChildWorkflow:${input.workflowType}`, input, next),
    signalWorkflow: (input, next) => handingOn(`SignalWorkflow:${input.signalName}`, input, next),
    continueAsNew: (input, next) =>
      handingOn(`ContinueAsNew:${input.options.workflowType}`, input, next, acceptContinueAsNew),
    getLogAttributes: (input, next) => {
      const spanContext = api.trace.getSpan(api.context.active())?.spanContext();
      if (!spanContext || !api.isSpanContextValid(spanContext)) return next(input);
      return next({
        trace_id: spanContext.traceId,
        span_id: spanContext.spanId,
        trace_flags: `0${spanContext.traceFlags.toString(16)}`,
        ...input,
      });
    },
  };
  return { inbound, outbound, dispose: () => contextManager.disable() };
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** One run's tracing, loaded when a sampled trace context arrives. */
class RunTracing {
  private loaded?: Tracing;
  /** The start's trace context when it was not sampled: what the run's own calls carry on. */
  private unsampled?: Headers[string];

  /** At the start: loads tracing when its context is sampled, else keeps the context to hand on. */
  start(headers: Headers): Tracing | undefined {
    const loaded = this.use(headers);
    if (!loaded && headers[TRACE_HEADER]) this.unsampled = headers[TRACE_HEADER];
    return loaded;
  }

  /** `headers` with the start's unsampled trace context, for a call that starts work elsewhere. */
  handOn(headers: Headers): Headers {
    return this.unsampled && !headers[TRACE_HEADER] ? { ...headers, [TRACE_HEADER]: this.unsampled } : headers;
  }

  /** The loaded tracing; loads it first when `headers` carry a sampled trace. */
  use(headers?: Headers): Tracing | undefined {
    if (!this.loaded && sampledTraceIn(headers)) this.loaded = loadTracing();
    return this.loaded;
  }
}

/**
 * Delegates an inbound call to the run's tracing once it traces; `decides`: a call whose headers
 * may start it.
 */
function inbound<K extends keyof Inbound>(run: RunTracing, method: K, decides: boolean): Inbound[K] {
  const call = (input: { headers: Headers }, next: (input: unknown) => unknown) => {
    const tracing = decides ? run.use(input.headers) : run.use();
    const traced = tracing?.inbound[method] as ((i: unknown, n: unknown) => unknown) | undefined;
    return traced ? traced.call(tracing!.inbound, input, next) : next(input);
  };
  return call as unknown as Inbound[K];
}

/**
 * Delegates an outbound call to the run's tracing once it traces; until then a call that starts
 * work elsewhere (`handsOn`) carries the start's unsampled context.
 */
function outbound<K extends keyof Outbound>(run: RunTracing, method: K, handsOn = false): Outbound[K] {
  const call = (input: { headers?: Headers }, next: (input: unknown) => unknown) => {
    const tracing = run.use();
    const traced = tracing?.outbound[method] as ((i: unknown, n: unknown) => unknown) | undefined;
    if (traced) return traced.call(tracing!.outbound, input, next);
    return next(handsOn && input.headers ? { ...input, headers: run.handOn(input.headers) } : input);
  };
  return call as unknown as Outbound[K];
}

class RunInternals implements WorkflowInternalsInterceptor {
  constructor(private readonly run: RunTracing) {}

  dispose(
    input: Parameters<NonNullable<WorkflowInternalsInterceptor['dispose']>>[0],
    next: Next<WorkflowInternalsInterceptor, 'dispose'>,
  ): void {
    this.run.use()?.dispose();
    next(input);
  }
}

export const interceptors: WorkflowInterceptorsFactory = () => {
  const run = new RunTracing();
  return {
    inbound: [
      {
        execute: (input, next) => {
          const tracing = run.start(input.headers);
          return tracing ? tracing.inbound.execute(input, next) : next(input);
        },
        handleSignal: inbound(run, 'handleSignal', true),
        handleUpdate: inbound(run, 'handleUpdate', true),
        // Validators and queries are not replayed: they never decide whether the run traces.
        validateUpdate: inbound(run, 'validateUpdate', false),
        handleQuery: inbound(run, 'handleQuery', false),
      },
    ],
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
    internals: [new RunInternals(run)],
  };
};
