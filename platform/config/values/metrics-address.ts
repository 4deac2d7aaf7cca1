/**
 * Where a process serves its Prometheus metrics: `CARDFLOW_METRICS_ADDRESS=host:port`, read the
 * same way by the worker, the webhook receiver and the codec server. Unset, the process serves no
 * metrics and records none (no listener, no registry).
 */
export interface MetricsAddress {
  /** Interface to bind, e.g. `0.0.0.0`, `127.0.0.1` or `::` (without brackets). */
  host: string;
  port: number;
  /** `host:port` as the SDK's Prometheus exporter takes it (IPv6 in brackets). */
  bindAddress: string;
}

/** Parses `host:port` (`[::]:9464` for IPv6); throws an Error naming the rule. */
export function parseMetricsAddress(raw: string): MetricsAddress {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(raw.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || port < 1 || port > 65535)
    throw new Error(`must be host:port with a port from 1 to 65535 (e.g. 0.0.0.0:9464)`);
  const host = match[1] ?? match[2]!;
  return { host, port, bindAddress: match[1] ? `[${host}]:${port}` : `${host}:${port}` };
}
