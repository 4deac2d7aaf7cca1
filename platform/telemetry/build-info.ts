/**
 * `cardflow_build_info{build_id, version} 1` on every process's metrics endpoint, so a dashboard
 * or a query (`count by (build_id) (cardflow_build_info)`) shows which builds serve during a
 * rollout. `build_id` is the Worker Deployment build id of the workflow bundle built with the code
 * (workers/versioning.ts), `version` the package's version; both bounded by the builds deployed.
 */
import type { MetricMeter } from '@temporalio/common';
import { Gauge, type Registry } from 'prom-client';

export interface BuildInfo {
  buildId: string;
  version: string;
}

const NAME = 'cardflow_build_info';
const HELP = 'Always 1; the labels name the build this process runs';

/** On a prom-client registry (receiver, codec server). */
export function registerBuildInfo(registry: Registry, build: BuildInfo): void {
  new Gauge({ name: NAME, help: HELP, labelNames: ['build_id', 'version'] as const, registers: [registry] }).set(
    { build_id: build.buildId, version: build.version },
    1,
  );
}

/** On the SDK Runtime's meter (worker). */
export function recordBuildInfo(meter: MetricMeter, build: BuildInfo): void {
  meter.createGauge(NAME, 'int', undefined, HELP).set(1, { build_id: build.buildId, version: build.version });
}
