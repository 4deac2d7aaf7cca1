/**
 * A completed reconciliation run's findings on the worker's metrics,
 * `cardflow_reconciliation_findings_total{kind}` (domain/reconciliation.ts): every kind is added,
 * 0 included, so each kind has its series from the first run on. The workflow meter records
 * nothing while replaying and never makes a command: histories replay unchanged.
 */
import { metricMeter } from '@temporalio/workflow';
import { FINDING_KINDS, FINDINGS_METRIC, type ReconcileReport } from '../../domain/reconciliation';

export function countFindings(report: Pick<ReconcileReport, 'counts'>): void {
  const findings = metricMeter.createCounter(FINDINGS_METRIC.name, undefined, FINDINGS_METRIC.description);
  for (const kind of Object.values(FINDING_KINDS)) findings.add(report.counts[kind] ?? 0, { kind });
}
