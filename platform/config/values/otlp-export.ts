/**
 * How traces leave a process, in OpenTelemetry's standard variables: `OTEL_TRACES_EXPORTER`
 * (`otlp`, `console` or `none`) and `OTEL_EXPORTER_OTLP_PROTOCOL` /
 * `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` (`http/protobuf`, the specification's default, or
 * `http/json`). cardflow exports over HTTP only: `grpc` and the retired exporters (`jaeger`,
 * `zipkin`) are refused by name, where an SDK would fall back silently and a team would wait for
 * traces that never come.
 */
export const TRACE_EXPORTERS = ['otlp', 'console', 'none'] as const;
export type TraceExporterName = (typeof TRACE_EXPORTERS)[number];

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** `OTEL_TRACES_EXPORTER`'s value, case and spaces aside; throws an Error naming the rule. */
export function parseTraceExporter(raw: string): TraceExporterName {
  const names = raw
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const [name] = names;
  if (names.length !== 1 || !TRACE_EXPORTERS.includes(name as TraceExporterName))
    throw new Error(`must be one of ${TRACE_EXPORTERS.join(', ')} (one exporter)`);
  return name as TraceExporterName;
}

/** An `OTEL_EXPORTER_OTLP_*PROTOCOL` value; throws an Error naming the rule. */
export function parseOtlpProtocol(raw: string): OtlpProtocol {
  const protocol = raw.trim().toLowerCase();
  if (protocol === 'grpc')
    throw new Error(`grpc is not supported: cardflow exports OTLP over HTTP (${OTLP_PROTOCOLS.join(' or ')})`);
  if (!OTLP_PROTOCOLS.includes(protocol as OtlpProtocol))
    throw new Error(`must be one of ${OTLP_PROTOCOLS.join(', ')}`);
  return protocol as OtlpProtocol;
}
