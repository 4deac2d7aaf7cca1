/**
 * The chart of tools/deploy/helm/cardflow rendered by the Helm it is checked with
 * (tools/scripts/helm.sh), for the default values and for the production example, and the parts
 * of the rendered objects the tests read.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load, loadAll } from 'js-yaml';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const CHART_DIR = path.join(REPO_ROOT, 'tools/deploy/helm/cardflow');
export const RELEASE = 'cardflow';
export const NAMESPACE = 'cardflow';

/** The value sets CI renders: the chart's defaults, and the production example on top of them. */
export const VALUE_SETS = {
  default: [] as string[],
  production: [path.join(CHART_DIR, 'values-production.yaml')],
} as const;
export type ValueSet = keyof typeof VALUE_SETS;

/**
 * The Kubernetes release the API server is built at (tools/scripts/kube-apiserver.sh): Helm renders
 * for it.
 */
export const KUBE_VERSION = (() => {
  const script = readFileSync(path.join(REPO_ROOT, 'tools/scripts/kube-apiserver.sh'), 'utf8');
  const version = /^readonly KUBE_VERSION="(v[\d.]+)"$/m.exec(script)?.[1];
  if (!version) throw new Error('tools/scripts/kube-apiserver.sh: no KUBE_VERSION line');
  return version;
})();

let helmPath: string | undefined;

/** Helm's binary: HELM_BIN, or the cached build (built once when absent). */
export function helm(): string {
  helmPath ??= execFileSync('bash', [path.join(REPO_ROOT, 'tools/scripts/helm.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  return helmPath;
}

export interface HelmRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Helm's notice that it follows the chart's link to the alert rules (files/cardflow-rules.yml, the
 * compose stack's one copy): expected, so dropped, and any other line of stderr stays.
 */
const LINKED_RULES_NOTICE =
  /^level=INFO msg="found symbolic link in path\. .* path=\S+\/files\/cardflow-rules\.yml .*\n/gm;

export function runHelm(args: readonly string[]): HelmRun {
  const run = spawnSync(helm(), args, { encoding: 'utf8', cwd: REPO_ROOT });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr.replace(LINKED_RULES_NOTICE, '') };
}

/** `helm template` of the chart with these values files and `--set`s; fails with Helm's message. */
export function renderText(valueFiles: readonly string[], sets: readonly string[] = []): string {
  const run = runHelm(templateArgs(valueFiles, sets));
  if (run.status !== 0) throw new Error(`helm template failed:\n${run.stderr}`);
  return run.stdout;
}

export function templateArgs(valueFiles: readonly string[], sets: readonly string[] = []): string[] {
  return [
    'template',
    RELEASE,
    CHART_DIR,
    '--namespace',
    NAMESPACE,
    '--kube-version',
    KUBE_VERSION,
    ...valueFiles.flatMap((file) => ['--values', file]),
    ...sets.flatMap((set) => ['--set', set]),
  ];
}

/** One rendered object, with the fields the tests read. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
}

export function parseManifests(text: string): Manifest[] {
  return (loadAll(text) as (Manifest | null)[]).filter((doc): doc is Manifest => doc !== null);
}

const rendered = new Map<ValueSet, Manifest[]>();

/** The objects the chart makes for a value set (rendered once per test file). */
export function render(set: ValueSet): Manifest[] {
  let manifests = rendered.get(set);
  if (!manifests) {
    manifests = parseManifests(renderText(VALUE_SETS[set]));
    rendered.set(set, manifests);
  }
  return manifests;
}

/** The chart's values.yaml, as Helm reads it. */
export function defaultValues(): Record<string, unknown> {
  return load(readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8')) as Record<string, unknown>;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: unknown;
}

export interface Probe {
  httpGet?: { path: string; port: number | string };
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: EnvVar[];
  ports?: { name?: string; containerPort: number }[];
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
  volumeMounts?: { name: string; mountPath: string }[];
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  terminationGracePeriodSeconds?: number;
  volumes?: {
    name: string;
    projected?: { sources: { secret?: { name: string; items: { key: string; path: string }[] } }[] };
  }[];
}

export interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: PodSpec;
}

/** The workload objects (Deployments and the set-up Job) with their pod templates. */
export function workloads(manifests: readonly Manifest[]): { manifest: Manifest; template: PodTemplate }[] {
  return manifests
    .filter((m) => m.kind === 'Deployment' || m.kind === 'Job')
    .map((manifest) => ({ manifest, template: (manifest.spec as { template: PodTemplate }).template }));
}

/** Every container of a pod, init containers first (the set-up job's steps run in that order). */
export function containersOf(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...spec.containers];
}

/** A container's environment as a record (the chart sets plain values only). */
export function envOf(container: Container): Record<string, string> {
  return Object.fromEntries((container.env ?? []).map((v) => [v.name, v.value ?? '']));
}

/** The one object of a kind and name; throws naming what is missing. */
export function find(manifests: readonly Manifest[], kind: string, name: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found)
    throw new Error(`no ${kind} ${name} among ${manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ')}`);
  return found;
}
