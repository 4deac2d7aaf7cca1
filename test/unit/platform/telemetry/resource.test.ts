/**
 * The resource of exported spans honours OpenTelemetry's standard variables:
 * `OTEL_RESOURCE_ATTRIBUTES` (percent-decoded pairs) and `OTEL_SERVICE_NAME`, which wins over a
 * `service.name` among the attributes; a malformed pair is refused naming the variable.
 */
import { readConfiguration } from '../../../../platform/config/schema';
import { parseResourceAttributes } from '../../../../platform/config/resource-attributes';
import { cardflowVersion } from '../../../../platform/config/version';
import { tracingResource } from '../../../../platform/telemetry/tracing';

it('parses key=value pairs, percent-decoded, skipping empty pairs', () => {
  expect(parseResourceAttributes('deployment.environment=production, service.namespace=pay%2Cments,,')).toEqual({
    'deployment.environment': 'production',
    'service.namespace': 'pay,ments',
  });
});

it('refuses a pair without a key or a bad escape, naming the variable', () => {
  expect(() => parseResourceAttributes('just-a-word')).toThrow(/"just-a-word" must be key=value/);
  expect(() => parseResourceAttributes('a=%E0%A4%A')).toThrow(/value of a has a bad percent escape/);
  expect(() => readConfiguration({ OTEL_RESOURCE_ATTRIBUTES: '=x' })).toThrow(/OTEL_RESOURCE_ATTRIBUTES/);
});

it("puts the attributes, the package's version and the service name on the resource", () => {
  const given = { 'deployment.environment': 'staging', 'service.name': 'from-attributes' };
  expect(tracingResource('worker', { OTEL_RESOURCE_ATTRIBUTES: given }).attributes).toEqual({
    'deployment.environment': 'staging',
    'service.name': 'from-attributes',
    'service.version': cardflowVersion(),
  });
  expect(
    tracingResource('worker', { OTEL_RESOURCE_ATTRIBUTES: given, OTEL_SERVICE_NAME: 'named' }).attributes[
      'service.name'
    ],
  ).toBe('named');
  expect(tracingResource('webhooks', {}).attributes['service.name']).toBe('cardflow-webhooks');
});
