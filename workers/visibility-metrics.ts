/**
 * Gauges no single workflow can compute, read from Temporal's visibility each interval by every
 * worker that serves metrics (alerts take the `max`): running onboardings by stage and the age of
 * the oldest (the SLA tools/deploy/prometheus/cardflow-rules.yml watches), and when the last
 * reconciliation succeeded and whether it found drift. One listing per interval, capped at
 * {@link MAX_LISTED} (beyond it the oldest may be missed: visibility lists newest first).
 */
import type { Client } from '@temporalio/client';
import type { MetricMeter } from '@temporalio/common';
import { CardflowStage } from '../domain/search-attributes';
import { WorkflowTypes } from '../domain/workflows';
import { schemaDefault } from '../platform/config/schema';

/** Running onboardings listed per sample at most. */
export const MAX_LISTED = 20_000;
/** Default interval between samples. */
export const DEFAULT_SAMPLE_INTERVAL_MS = schemaDefault('CARDFLOW_METRICS_SAMPLE_SECONDS') * 1000;

export interface VisibilityMetrics {
  /** Takes one sample now (the interval also does). */
  sample(): Promise<void>;
  stop(): void;
}

export function startVisibilityMetrics(opts: {
  client: Client;
  meter: MetricMeter;
  intervalMs?: number;
  onError?: (error: unknown) => void;
}): VisibilityMetrics {
  const { client, meter } = opts;
  const running = meter.createGauge(
    'cardflow_onboardings_running',
    'int',
    undefined,
    'Running customer onboardings by stage',
  );
  const oldest = meter.createGauge(
    'cardflow_onboarding_oldest_age_seconds',
    'float',
    undefined,
    'Age of the oldest running customer onboarding in each stage, since it started',
  );
  const lastSuccess = meter.createGauge(
    'cardflow_reconciliation_last_success_timestamp_seconds',
    'float',
    undefined,
    'When the last reconciliation run completed (Unix time)',
  );
  const lastDrift = meter.createGauge(
    'cardflow_reconciliation_last_drift',
    'int',
    undefined,
    '1 when the last completed reconciliation run found drift for an operator',
  );
  /** Stages seen before: set back to 0 once empty (a gauge keeps its last value otherwise). */
  const stages = new Set<string>();

  async function sampleOnboardings(): Promise<void> {
    const now = Date.now();
    const byStage = new Map<string, { count: number; oldestStart: number }>();
    let listed = 0;
    const query = `WorkflowType = '${WorkflowTypes.customerOnboarding}' AND ExecutionStatus = 'Running'`;
    for await (const info of client.workflow.list({ query, pageSize: 1000 })) {
      const stage = info.typedSearchAttributes.get(CardflowStage) ?? 'starting';
      const entry = byStage.get(stage) ?? { count: 0, oldestStart: now };
      entry.count += 1;
      entry.oldestStart = Math.min(entry.oldestStart, info.startTime.getTime());
      byStage.set(stage, entry);
      if (++listed >= MAX_LISTED) break;
    }
    for (const stage of byStage.keys()) stages.add(stage);
    for (const stage of stages) {
      const entry = byStage.get(stage);
      running.set(entry?.count ?? 0, { stage });
      oldest.set(entry ? Math.max(0, now - entry.oldestStart) / 1000 : 0, { stage });
    }
  }

  async function sampleReconciliation(): Promise<void> {
    const query = `WorkflowType = '${WorkflowTypes.reconciliation}' AND ExecutionStatus = 'Completed'`;
    for await (const info of client.workflow.list({ query, pageSize: 1 })) {
      if (info.closeTime) lastSuccess.set(info.closeTime.getTime() / 1000);
      lastDrift.set(info.typedSearchAttributes.get(CardflowStage) === 'drift' ? 1 : 0);
      break;
    }
  }

  let busy: Promise<void> | undefined;
  const sample = () => {
    busy ??= Promise.all([sampleOnboardings(), sampleReconciliation()])
      .then(() => undefined)
      .finally(() => {
        busy = undefined;
      });
    return busy;
  };
  const timer = setInterval(() => {
    sample().catch((error: unknown) => opts.onError?.(error));
  }, opts.intervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS);
  timer.unref();
  return {
    sample,
    stop: () => clearInterval(timer),
  };
}
