/**
 * The reconciliation windows when their variables are unset: the schema's defaults
 * (platform/config/schema.ts), and what a reconciliation started without them uses
 * (domain/reconciliation.ts). Free of Node so that workflow code may import it.
 */
export const RECONCILE_WINDOW_DEFAULTS = {
  CARDFLOW_RECONCILE_OVERLAP: '10m',
  CARDFLOW_RECONCILE_FIRST_LOOKBACK: '24h',
  CARDFLOW_RECONCILE_OPERATION_SLA: '30m',
  CARDFLOW_RECONCILE_REVIEW_SLA: '72h',
  CARDFLOW_RECONCILE_EVENT_GRACE: '5m',
} as const;
