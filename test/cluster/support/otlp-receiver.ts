/**
 * A tiny OTLP/HTTP (JSON) trace receiver on loopback, port 0: it keeps every span it is sent, for
 * tests to follow a trace across processes, and every export request whole (events, status,
 * resource and all), for a scan of everything a span carries. Its `env` points an exporter at it
 * in JSON (cardflow's default encoding is protobuf, which it refuses with 415, so a forgotten
 * setting shows).
 */
import { createServer } from 'node:http';
import { serveOnLoopback } from '../../support/loopback-server';

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, string | number | boolean>;
  links: Array<{ traceId: string; spanId: string }>;
}

/** An attribute value as OTLP/JSON writes it (`bytesValue` in base64). */
export interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  bytesValue?: string;
  arrayValue?: { values?: OtlpValue[] };
  kvlistValue?: { values?: OtlpAttribute[] };
}
export interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: OtlpAttribute[];
  events?: Array<{ name?: string; attributes?: OtlpAttribute[] }>;
  links?: Array<{ traceId: string; spanId: string; attributes?: OtlpAttribute[] }>;
  status?: { code?: number; message?: string };
}
/** One export request's body: `ExportTraceServiceRequest` in OTLP/JSON. */
export interface OtlpRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ scope?: { name?: string; version?: string }; spans?: OtlpSpan[] }>;
  }>;
}

function valueOf(value: OtlpValue): string | number | boolean {
  return value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue ?? NaN);
}

function attributesOf(list: OtlpAttribute[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));
}

export interface OtlpReceiver {
  /** The base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  url: string;
  /** The variables that send a process's traces here. */
  env: { OTEL_EXPORTER_OTLP_ENDPOINT: string; OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
  spans: ReceivedSpan[];
  /** Every export request, as sent. */
  requests: OtlpRequest[];
  stop(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest;
      requests.push(body);
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              attributes: attributesOf(span.attributes),
              links: (span.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const served = await serveOnLoopback(server);
  return {
    url: served.url,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: served.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    spans,
    requests,
    stop: served.close,
  };
}
