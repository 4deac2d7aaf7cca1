/**
 * How spans leave a process: OTLP over HTTP in the encoding `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`
 * names (protobuf unless told otherwise, as OpenTelemetry's specification defaults), and the
 * exporters and protocols cardflow does not ship refused by name before anything starts.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTracing } from '../../../../platform/telemetry/tracing';
import { tracingConfigured } from '../../../../platform/telemetry/tracing-config';
import { configured } from '../../../support/configured';

/** Exports one span with `env` and returns the headers of the export request the endpoint got. */
async function exportOneSpan(env: Record<string, string>): Promise<IncomingHttpHeaders[]> {
  const requests: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    requests.push({ ...req.headers, path: req.url });
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const tracing = startTracing(
      'unit',
      configured({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'always_on', ...env }),
    )!;
    tracing.tracer.startSpan('one').end();
    await tracing.shutdown();
    return requests;
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

it('exports protobuf by default, JSON when asked, the traces setting winning over the general one', async () => {
  const [byDefault] = await exportOneSpan({});
  expect(byDefault).toMatchObject({ path: '/v1/traces', 'content-type': 'application/x-protobuf' });
  const [json] = await exportOneSpan({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
  expect(json?.['content-type']).toBe('application/json');
  const [traces] = await exportOneSpan({
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
  });
  expect(traces?.['content-type']).toBe('application/x-protobuf');
});

it('refuses grpc and exporters cardflow does not ship, naming the variable', () => {
  expect(() => configured({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
    /OTEL_EXPORTER_OTLP_PROTOCOL: grpc is not supported/,
  );
  expect(() => configured({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http' })).toThrow(
    /OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: must be one of http\/protobuf, http\/json/,
  );
  expect(() => configured({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER: must be one of otlp/);
  expect(() => configured({ OTEL_TRACES_EXPORTER: 'otlp,console' })).toThrow(/one exporter/);
  expect(() => configured({ OTEL_BSP_SCHEDULE_DELAY: '0' })).toThrow(/OTEL_BSP_SCHEDULE_DELAY: must be a whole number/);
});

it('the console exporter turns tracing on without an endpoint; none and the SDK switch turn it off', () => {
  expect(tracingConfigured(configured({ OTEL_TRACES_EXPORTER: 'Console' }))).toBe(true);
  expect(tracingConfigured(configured({ OTEL_TRACES_EXPORTER: 'otlp' }))).toBe(false);
  expect(tracingConfigured(configured({ OTEL_TRACES_EXPORTER: 'console', OTEL_SDK_DISABLED: 'true' }))).toBe(false);
});
