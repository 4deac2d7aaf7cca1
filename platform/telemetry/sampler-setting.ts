/**
 * Which traces are kept: head sampling, decided where a trace begins (a backend's start, a webhook
 * receipt, an activity of an untraced workflow) and followed by everything under it, so a kept
 * trace is whole and an unsampled span costs next to nothing (no span recorded, nothing exported; a
 * workflow run loads no tracing at all: workflows/interceptors/tracing.ts).
 *
 * The standard variables `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` (their rules in
 * platform/config/values/sampler.ts). cardflow's default differs from OpenTelemetry's (always on):
 * with neither set, the schema's default sampler at {@link DEFAULT_TRACE_RATIO}.
 */
import { configured, type ConfigurationSlice } from '../config/schema';
import { DEFAULT_TRACE_RATIO, type SamplerName } from '../config/values/sampler';

export interface SamplerSetting {
  name: SamplerName;
  /** The ratio of the `traceidratio` samplers. */
  ratio?: number;
}

/**
 * The sampler the parsed `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` name, OpenTelemetry's
 * defaults filled in: a ratio sampler named without its argument samples everything, and with
 * neither set the default sampler keeps the default ratio.
 */
export function samplerSetting(
  config: ConfigurationSlice<'OTEL_TRACES_SAMPLER' | 'OTEL_TRACES_SAMPLER_ARG'>,
): SamplerSetting {
  const name = configured(config, 'OTEL_TRACES_SAMPLER');
  if (!name.endsWith('traceidratio')) return { name };
  return {
    name,
    ratio: config.OTEL_TRACES_SAMPLER_ARG ?? (config.OTEL_TRACES_SAMPLER === undefined ? DEFAULT_TRACE_RATIO : 1),
  };
}
