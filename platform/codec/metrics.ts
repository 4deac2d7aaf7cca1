/**
 * The codec server's Prometheus metrics, fed by its `onAnswered` hook:
 *
 * - `cardflow_codec_requests_total{operation, code}`: requests answered, by route (`encode`,
 *   `decode`, `other` for a path that is not the codec's) and HTTP status; a refusal is any code
 *   but 200 and 204 (401 token, 403 origin, 413 size, 422 undecryptable, 400 malformed).
 * - `cardflow_codec_payloads_total{operation}`: payloads encoded or decoded.
 */
import { Counter, type Registry } from 'prom-client';
import type { CodecServerOptions } from './server';

export function codecServerMetrics(registry: Registry): Required<Pick<CodecServerOptions, 'onAnswered'>> {
  const requests = new Counter({
    name: 'cardflow_codec_requests_total',
    help: 'Codec server requests answered, by operation and HTTP status',
    labelNames: ['operation', 'code'] as const,
    registers: [registry],
  });
  const payloads = new Counter({
    name: 'cardflow_codec_payloads_total',
    help: 'Payloads the codec server encoded or decoded',
    labelNames: ['operation'] as const,
    registers: [registry],
  });
  return {
    onAnswered(answered) {
      const operation = answered.op ?? 'other';
      requests.inc({ operation, code: String(answered.status) });
      if (answered.payloads) payloads.inc({ operation }, answered.payloads);
    },
  };
}
