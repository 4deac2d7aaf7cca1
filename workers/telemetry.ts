/**
 * The worker's metrics: one Prometheus endpoint per worker process, served by the SDK's Runtime,
 * holding the SDK's `temporal_` metrics and cardflow's, recorded through the Runtime's meter
 * (provider calls here; lookups, workflow outcomes, findings and visibility gauges where they
 * happen). One listener rather than prom-client on a second port: the SDK's metrics cannot move,
 * and one target per process keeps the Prometheus configuration simple. Counters get `_total`
 * from the exporter; histograms and gauges carry their unit in their name (docs/observability.md).
 */
import type { MetricMeter } from '@temporalio/common';
import type { TelemetryOptions } from '@temporalio/worker';
import type { ProviderCallRecord } from '../provider/call-outcome';
import { FINDING_KINDS, FINDINGS_METRIC } from '../domain/reconciliation';
import { WorkflowTypes } from '../domain/workflows';
import { configured, type ConfigurationSlice } from '../platform/config/schema';
import type { ProbeBudget } from './create-worker';

/**
 * Buckets in seconds: a provider answers in tens of milliseconds, its timeout is tens of seconds.
 */
export const PROVIDER_CALL_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The Runtime's metrics options for a Prometheus endpoint at `bindAddress`. */
export function prometheusTelemetry(bindAddress: string): NonNullable<TelemetryOptions['metrics']> {
  return {
    prometheus: {
      bindAddress,
      countersTotalSuffix: true,
      unitSuffix: true,
      useSecondsForDurations: true,
      histogramBucketOverrides: { cardflow_provider_call_duration_seconds: PROVIDER_CALL_BUCKETS },
    },
  };
}

/**
 * The provider client's `onCall` hook recording on `meter`:
 * `cardflow_provider_calls_total{operation, outcome}` and
 * `cardflow_provider_call_duration_seconds{operation}` (provider/call-outcome.ts says the
 * outcomes).
 */
export function providerCallMetrics(meter: MetricMeter): (call: ProviderCallRecord) => void {
  const calls = meter.createCounter(
    'cardflow_provider_calls',
    undefined,
    'Provider calls sent, by operation and outcome',
  );
  const duration = meter.createHistogram(
    'cardflow_provider_call_duration_seconds',
    'float',
    undefined,
    'Provider call duration, sending to the interpreted answer',
  );
  return (call) => {
    calls.add(1, { operation: call.operation, outcome: call.outcome });
    duration.record(call.seconds, { operation: call.operation });
  };
}

/**
 * The probe queue's budget as gauges, for dashboards to set the probes' rate
 * (`temporal_activity_execution_latency_seconds_count` on the probe queue) and slots in use
 * against: `cardflow_probe_budget_per_second` and `cardflow_probe_budget_slots`.
 */
export function recordProbeBudget(meter: MetricMeter, budget: Required<ProbeBudget>, taskQueue: string): void {
  meter
    .createGauge(
      'cardflow_probe_budget_per_second',
      'float',
      undefined,
      'Probes started per second allowed on the probe queue',
    )
    .set(budget.perSecond, { task_queue: taskQueue });
  meter
    .createGauge('cardflow_probe_budget_slots', 'int', undefined, 'Probes allowed to run at once in this worker')
    .set(budget.slots, { task_queue: taskQueue });
}

/**
 * `cardflow_reconciliation_findings_total{kind}` at 0 for every kind, with the labels the
 * reconciliation workflow's own records carry (the worker's namespace and task queue, the
 * workflow type): a series that first appeared with a run's findings in it would show no
 * increase, and the run that found them would be missed by rates and alerts.
 */
export function initFindingsCounter(meter: MetricMeter, worker: { namespace: string; taskQueue: string }): void {
  const findings = meter
    .withTags({ ...worker, workflow_type: WorkflowTypes.reconciliation })
    .createCounter(FINDINGS_METRIC.name, undefined, FINDINGS_METRIC.description);
  for (const kind of Object.values(FINDING_KINDS)) findings.add(0, { kind });
}

export interface WorkerMetricsSettings {
  /** `host:port` of the Runtime's Prometheus endpoint. */
  bindAddress: string;
  /** Interval of the visibility gauges (workers/visibility-metrics.ts). */
  sampleIntervalMs: number;
}

/**
 * `CARDFLOW_METRICS_ADDRESS` (off when unset) and `CARDFLOW_METRICS_SAMPLE_SECONDS` (the
 * visibility gauges' interval).
 */
export function workerMetrics(
  config: ConfigurationSlice<'CARDFLOW_METRICS_ADDRESS' | 'CARDFLOW_METRICS_SAMPLE_SECONDS'>,
): WorkerMetricsSettings | undefined {
  const address = config.CARDFLOW_METRICS_ADDRESS;
  if (!address) return undefined;
  return {
    bindAddress: address.bindAddress,
    sampleIntervalMs: configured(config, 'CARDFLOW_METRICS_SAMPLE_SECONDS') * 1000,
  };
}
