/**
 * The chart's probes, ports and stop timings held to what the processes serve and do: each probe
 * asks a path the process answers (platform/health/routes.ts) on the port its own variable makes
 * it listen on, on the pod's address; Services, the Ingress and the PodMonitor name ports that
 * exist; the stop grace covers the worker's shutdown grace and the receiver's drain; the metrics
 * jobs are the ones the alert rules select on.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { HEALTH_PATH, READY_PATH } from '../../platform/health/routes';
import { parseListenAddress } from '../../platform/health/server';
import { parseMetricsAddress } from '../../platform/config/values/metrics-address';
import { configured, readConfiguration } from '../../platform/config/schema';
import { SHUTDOWN_GRACE_SECONDS } from '../../workers/config';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../webhooks/receiver';
import {
  type Container,
  defaultValues,
  envOf,
  find,
  type Manifest,
  type PodTemplate,
  REPO_ROOT,
  render,
  VALUE_SETS,
  type ValueSet,
  workloads,
} from './support/chart';

/**
 * Where a long-running process listens for its HTTP routes and probes, read from its own variables.
 */
const LISTENERS: Record<string, (env: Record<string, string>) => { host: string; port: number }> = {
  worker: (env) => parseListenAddress(env.CARDFLOW_WORKER_HEALTH_ADDRESS!, 'CARDFLOW_WORKER_HEALTH_ADDRESS'),
  webhooks: ({ CARDFLOW_WEBHOOK_HOST, CARDFLOW_WEBHOOK_PORT }) => {
    const config = readConfiguration({ CARDFLOW_WEBHOOK_HOST, CARDFLOW_WEBHOOK_PORT }, { withoutInterlock: true });
    return { host: configured(config, 'CARDFLOW_WEBHOOK_HOST'), port: configured(config, 'CARDFLOW_WEBHOOK_PORT') };
  },
  'codec-server': ({ CARDFLOW_CODEC_SERVER_HOST, CARDFLOW_CODEC_SERVER_PORT }) => {
    const config = readConfiguration(
      { CARDFLOW_CODEC_SERVER_HOST, CARDFLOW_CODEC_SERVER_PORT },
      { withoutInterlock: true },
    );
    return {
      host: configured(config, 'CARDFLOW_CODEC_SERVER_HOST'),
      port: configured(config, 'CARDFLOW_CODEC_SERVER_PORT'),
    };
  },
};

function portNumber(container: Container, port: number | string): number {
  if (typeof port === 'number') return port;
  const found = container.ports?.find((p) => p.name === port);
  if (!found) throw new Error(`container ${container.name} has no port named ${port}`);
  return found.containerPort;
}

function deployments(manifests: readonly Manifest[]) {
  return workloads(manifests).filter(({ manifest }) => manifest.kind === 'Deployment');
}

const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

describe.each(Object.keys(VALUE_SETS) as ValueSet[])('the %s values', (set) => {
  const manifests = render(set);

  it.each(deployments(manifests).map((d) => [d.manifest.metadata.name, d.template] as const))(
    "%s probes its process's health routes on the port it listens on, on the pod's address",
    (_name, template: PodTemplate) => {
      const [container] = template.spec.containers;
      const listener = LISTENERS[container!.name]!(envOf(container!));
      expect(listener.host).toBe('0.0.0.0');
      const probes = {
        startup: container!.startupProbe?.httpGet,
        readiness: container!.readinessProbe?.httpGet,
        liveness: container!.livenessProbe?.httpGet,
      };
      expect({
        startup: probes.startup?.path,
        readiness: probes.readiness?.path,
        liveness: probes.liveness?.path,
      }).toEqual({ startup: HEALTH_PATH, readiness: READY_PATH, liveness: HEALTH_PATH });
      for (const probe of Object.values(probes)) expect(portNumber(container!, probe!.port)).toBe(listener.port);
    },
  );

  it.each(deployments(manifests).map((d) => [d.manifest.metadata.name, d.template] as const))(
    '%s serves its metrics on the port named `metrics`',
    (_name, template: PodTemplate) => {
      const [container] = template.spec.containers;
      const address = parseMetricsAddress(envOf(container!).CARDFLOW_METRICS_ADDRESS!);
      expect(address).toMatchObject({ host: '0.0.0.0', port: portNumber(container!, 'metrics') });
    },
  );

  it('gives workers a stop grace above their shutdown grace, as values.yaml states it', () => {
    expect((defaultValues().workers as { shutdownGraceSeconds: number }).shutdownGraceSeconds).toBe(
      SHUTDOWN_GRACE_SECONDS,
    );
    const workers = deployments(manifests).filter((d) => d.template.spec.containers[0]!.name === 'worker');
    expect(workers.length).toBeGreaterThan(0);
    for (const { template } of workers)
      expect(template.spec.terminationGracePeriodSeconds).toBeGreaterThan(SHUTDOWN_GRACE_SECONDS);
  });

  it("gives receivers a preStop and a stop grace covering it, the drain and a request's time limit", () => {
    const { template } = deployments(manifests).find((d) => d.template.spec.containers[0]!.name === 'webhooks')!;
    const [container] = template.spec.containers;
    const preStop = container!.lifecycle?.preStop?.sleep?.seconds;
    expect(preStop).toBeGreaterThan(0);
    const drain = Number(envOf(container!).CARDFLOW_WEBHOOK_DRAIN_SECONDS);
    expect(drain).toBeGreaterThan(0);
    expect(template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      preStop! + drain + DEFAULT_REQUEST_TIMEOUT_MS / 1000,
    );
  });

  it('points every Service at pods it selects, on ports they have', () => {
    const pods = deployments(manifests).map((d) => d.template);
    for (const service of manifests.filter((m) => m.kind === 'Service')) {
      const spec = service.spec as { selector: Record<string, string>; ports: { targetPort: string }[] };
      const selected = pods.filter((p) => matches(spec.selector, p.metadata.labels));
      expect(selected.length).toBeGreaterThan(0);
      for (const pod of selected)
        for (const port of spec.ports) expect(() => portNumber(pod.spec.containers[0]!, port.targetPort)).not.toThrow();
    }
  });

  it('routes an Ingress to a Service port that exists', () => {
    for (const ingress of manifests.filter((m) => m.kind === 'Ingress')) {
      const spec = ingress.spec as {
        rules: {
          http: { paths: { path: string; backend: { service: { name: string; port: { name: string } } } }[] };
        }[];
      };
      for (const { path: route, backend } of spec.rules.flatMap((r) => r.http.paths)) {
        expect(route).toBe('/webhooks');
        const service = find(manifests, 'Service', backend.service.name).spec as { ports: { name: string }[] };
        expect(service.ports.map((p) => p.name)).toContain(backend.service.port.name);
      }
    }
  });

  it('labels metrics with the job names the alert rules select on', () => {
    const prometheus = load(readFileSync(path.join(REPO_ROOT, 'tools/deploy/prometheus/prometheus.yml'), 'utf8')) as {
      scrape_configs: { job_name: string }[];
    };
    const cardflowJobs = prometheus.scrape_configs.map((c) => c.job_name).filter((j) => j.startsWith('cardflow-'));
    const jobs = new Set(deployments(manifests).map((d) => d.template.metadata.labels['cardflow.dev/metrics-job']));
    expect([...jobs].sort()).toEqual(cardflowJobs.sort());
  });
});

describe('the production values', () => {
  const manifests = render('production');

  it("scrape every process's metrics port with a PodMonitor whose job label is the pods'", () => {
    const monitors = manifests.filter((m) => m.kind === 'PodMonitor');
    expect(monitors).toHaveLength(1);
    const spec = monitors[0]!.spec as {
      jobLabel: string;
      selector: { matchLabels: Record<string, string> };
      podMetricsEndpoints: { port: string; path: string }[];
    };
    expect(spec.jobLabel).toBe('cardflow.dev/metrics-job');
    expect(spec.podMetricsEndpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics' })]);
    const pods = deployments(manifests).map((d) => d.template);
    for (const pod of pods) {
      expect(matches(spec.selector.matchLabels, pod.metadata.labels)).toBe(true);
      expect(pod.metadata.labels[spec.jobLabel]).toBeDefined();
    }
  });

  it('carry the alert rules of the compose stack, unchanged, as a PrometheusRule', () => {
    const rules = load(readFileSync(path.join(REPO_ROOT, 'tools/deploy/prometheus/cardflow-rules.yml'), 'utf8'));
    const [rule] = manifests.filter((m) => m.kind === 'PrometheusRule');
    expect(rule?.spec).toEqual(rules);
  });
});
