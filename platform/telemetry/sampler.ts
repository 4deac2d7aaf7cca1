/**
 * The OpenTelemetry sampler for a configured {@link SamplerSetting}
 * (platform/telemetry/sampler-setting.ts: the variables and their rules, kept apart so the
 * configuration schema checks them without loading OpenTelemetry).
 */
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import type { SamplerSetting } from './sampler-setting';

export function samplerFor(setting: SamplerSetting): Sampler {
  const root = (name: string): Sampler =>
    name.endsWith('always_on')
      ? new AlwaysOnSampler()
      : name.endsWith('always_off')
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(setting.ratio);
  return setting.name.startsWith('parentbased_')
    ? new ParentBasedSampler({ root: root(setting.name) })
    : root(setting.name);
}
