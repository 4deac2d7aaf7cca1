/**
 * The rules of the standard sampler variables, `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`
 * (platform/telemetry/sampler-setting.ts reads them into a sampler).
 */

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

export type SamplerName = (typeof SAMPLERS)[number];

/**
 * One trace in ten, when neither variable is set: at that share tracing costs no more CPU than
 * the noise between runs of `npm run bench` (docs/observability.md, "Cost"); raise it for an
 * investigation.
 */
export const DEFAULT_TRACE_RATIO = 0.1;

/** `OTEL_TRACES_SAMPLER`'s value, case and spaces aside; throws an Error naming the rule. */
export function parseSamplerName(raw: string): SamplerName {
  const name = raw.trim().toLowerCase() as SamplerName;
  if (!SAMPLERS.includes(name)) throw new Error(`must be one of ${SAMPLERS.join(', ')}`);
  return name;
}

/** `OTEL_TRACES_SAMPLER_ARG`'s value; throws an Error naming the rule. */
export function parseSamplerRatio(raw: string): number {
  const text = raw.trim();
  const ratio = Number(text);
  if (!/^\d*\.?\d+(e-?\d+)?$/i.test(text) || !(ratio >= 0 && ratio <= 1))
    throw new Error('must be a ratio from 0 to 1 (e.g. 0.1)');
  return ratio;
}
