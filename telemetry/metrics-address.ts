/**
 * Where a process serves its Prometheus metrics: `CARDFLOW_METRICS_ADDRESS=host:port`, read the
 * same way by the worker, the webhook receiver and the codec server. Unset, the process serves no
 * metrics and records none (no listener, no registry).
 */
import { processEnv } from '../config/process-env';

/** The variable every cardflow process reads its metrics address from. */
export const METRICS_ADDRESS_VARIABLE = 'CARDFLOW_METRICS_ADDRESS';

export interface MetricsAddress {
  /** Interface to bind, e.g. `0.0.0.0`, `127.0.0.1` or `::` (without brackets). */
  host: string;
  port: number;
  /** `host:port` as the SDK's Prometheus exporter takes it (IPv6 in brackets). */
  bindAddress: string;
}

/** Parses `host:port` (`[::]:9464` for IPv6); throws an Error naming the variable and the rule. */
export function parseMetricsAddress(raw: string, name = METRICS_ADDRESS_VARIABLE): MetricsAddress {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(raw.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || port < 1 || port > 65535)
    throw new Error(`${name}: must be host:port with a port from 1 to 65535 (e.g. 0.0.0.0:9464)`);
  const host = match[1] ?? match[2]!;
  return { host, port, bindAddress: match[1] ? `[${host}]:${port}` : `${host}:${port}` };
}

/** The metrics address of this process, or undefined when metrics are off. */
export function metricsAddressFromEnv(
  env: Record<string, string | undefined> = processEnv(),
): MetricsAddress | undefined {
  const raw = env[METRICS_ADDRESS_VARIABLE]?.trim();
  return raw ? parseMetricsAddress(raw) : undefined;
}
