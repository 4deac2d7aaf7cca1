/**
 * Which traces are kept: head sampling, decided where a trace begins (a backend's start, a webhook
 * receipt, an activity of an untraced workflow) and followed by everything under it, so a kept
 * trace is whole and an unsampled span costs next to nothing (no span recorded, nothing exported;
 * a workflow run loads no tracing at all: workflows/interceptors/tracing.ts).
 *
 * The standard variables: `OTEL_TRACES_SAMPLER` (`parentbased_traceidratio`, `parentbased_always_on`,
 * `parentbased_always_off`, `traceidratio`, `always_on`, `always_off`) and `OTEL_TRACES_SAMPLER_ARG`
 * (the ratio, 0 to 1). cardflow's default differs from OpenTelemetry's (always on): with neither
 * set, {@link DEFAULT_TRACE_SAMPLER} at {@link DEFAULT_TRACE_RATIO}.
 */
import type { ConfigurationSlice } from '../config/schema';

export const DEFAULT_TRACE_SAMPLER: SamplerSetting['name'] = 'parentbased_traceidratio';
/**
 * One trace in ten: at that share bench (a) cannot tell tracing from off (docs/observability.md,
 * "Cost"); raise it for an investigation.
 */
export const DEFAULT_TRACE_RATIO = 0.1;

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

export interface SamplerSetting {
  name: (typeof SAMPLERS)[number];
  /** The ratio of the `traceidratio` samplers. */
  ratio?: number;
}

/** `OTEL_TRACES_SAMPLER`'s value, case and spaces aside; throws an Error naming the rule. */
export function parseSamplerName(raw: string): SamplerSetting['name'] {
  const name = raw.trim().toLowerCase() as SamplerSetting['name'];
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

/**
 * The sampler the parsed `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` name, OpenTelemetry's
 * defaults filled in: a ratio sampler named without its argument samples everything, and with
 * neither set the default sampler keeps the default ratio.
 */
export function samplerSetting(
  config: ConfigurationSlice<'OTEL_TRACES_SAMPLER' | 'OTEL_TRACES_SAMPLER_ARG'>,
): SamplerSetting {
  const name = config.OTEL_TRACES_SAMPLER ?? DEFAULT_TRACE_SAMPLER;
  if (!name.endsWith('traceidratio')) return { name };
  return {
    name,
    ratio: config.OTEL_TRACES_SAMPLER_ARG ?? (config.OTEL_TRACES_SAMPLER === undefined ? DEFAULT_TRACE_RATIO : 1),
  };
}
