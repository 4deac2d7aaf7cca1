/**
 * A tiny OTLP/HTTP (JSON) trace receiver on loopback, port 0: it keeps every span it is sent, for
 * tests to follow a trace across processes. Its `env` points an exporter at it in JSON (cardflow's
 * default encoding is protobuf, which it refuses with 415, so a forgotten setting shows).
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

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: OtlpAttribute[];
  links?: Array<{ traceId: string; spanId: string }>;
}
interface OtlpRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
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
  stop(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest;
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
    stop: served.close,
  };
}
