/**
 * The chart itself: `helm lint --strict` for the default and the production values, what it makes
 * of them (one worker Deployment per build, each with its budget and autoscaler; the set-up job as
 * a hook; the restricted pod security settings on every container), and the values it refuses,
 * each with a message naming the value and the rule, before anything reaches a cluster.
 */
import {
  CHART_DIR,
  containersOf,
  type Manifest,
  render,
  runHelm,
  templateArgs,
  VALUE_SETS,
  type ValueSet,
  workloads,
} from './support/chart';

const names = (manifests: readonly Manifest[], kind: string) =>
  manifests
    .filter((m) => m.kind === kind)
    .map((m) => m.metadata.name)
    .sort();

describe.each(Object.keys(VALUE_SETS) as ValueSet[])('the %s values', (set) => {
  it('pass helm lint --strict', () => {
    const run = runHelm(['lint', '--strict', CHART_DIR, ...VALUE_SETS[set].flatMap((f) => ['--values', f])]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('run every container non-root, read-only, without capabilities, under RuntimeDefault seccomp', () => {
    for (const { template } of workloads(render(set))) {
      expect(template.spec).toMatchObject({
        automountServiceAccountToken: false,
        securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      });
      for (const container of containersOf(template.spec))
        expect(container).toMatchObject({
          securityContext: {
            runAsNonRoot: true,
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
          },
        });
    }
  });

  it('run the set-up entry points in one hook job before install and upgrade', () => {
    const jobs = render(set).filter((m) => m.kind === 'Job');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.metadata.annotations).toMatchObject({ 'helm.sh/hook': 'pre-install,pre-upgrade' });
    const [job] = workloads(jobs);
    expect(containersOf(job!.template.spec).map((c) => c.command)).toEqual([
      ['node', 'dist/tools/deploy/setup-database.js'],
      ['node', 'dist/tools/deploy/setup-temporal.js'],
    ]);
  });
});

describe('worker builds', () => {
  it('make a Deployment, a disruption budget and an autoscaler per build listed', () => {
    const manifests = render('production');
    const builds = ['cardflow-worker-v1', 'cardflow-worker-v2'];
    expect(names(manifests, 'Deployment').filter((n) => n.includes('-worker-'))).toEqual(builds);
    expect(names(manifests, 'PodDisruptionBudget').filter((n) => n.includes('-worker-'))).toEqual(builds);
    expect(names(manifests, 'HorizontalPodAutoscaler').filter((n) => n.includes('-worker-'))).toEqual(builds);
  });

  it("each run their own image and select only their own build's pods", () => {
    const workers = workloads(render('production')).filter((w) => w.manifest.metadata.name.includes('-worker-'));
    expect(workers.map((w) => w.template.spec.containers[0]!.image)).toEqual([
      'registry.example.com/payments/cardflow:2026.11.3',
      'registry.example.com/payments/cardflow:2026.12.1',
    ]);
    for (const { manifest, template } of workers) {
      const build = manifest.metadata.name.replace(/^cardflow-worker-/, '');
      expect((manifest.spec as { selector: { matchLabels: object } }).selector.matchLabels).toMatchObject({
        'cardflow.dev/build': build,
      });
      expect(template.metadata.labels['cardflow.dev/build']).toBe(build);
    }
  });
});

describe('values the chart refuses', () => {
  const refusal = (sets: string[], valueFiles: readonly string[] = []) => {
    const run = runHelm(templateArgs(valueFiles, sets));
    expect(run.status).not.toBe(0);
    return run.stderr;
  };

  it.each([
    ['no worker build', ['workers.builds=null'], "at '/workers': missing property 'builds'"],
    ['a build name that cannot name a Deployment', ['workers.builds[0].name=Version_2'], 'must be 1 to 24 lower-case'],
    [
      'a build listed twice',
      ['workers.builds[0].name=v1', 'workers.builds[1].name=v1', 'workers.builds[1].image.tag=x'],
      'is listed twice',
    ],
    [
      "a worker stop grace within the worker's own",
      ['workers.terminationGracePeriodSeconds=10'],
      "must exceed the worker's shutdown grace",
    ],
    [
      'a receiver stop grace shorter than its drain',
      ['receivers.drainSeconds=20'],
      'receivers.terminationGracePeriodSeconds (30) must cover preStopSeconds + drainSeconds + 10 s',
    ],
    ['a secret without its Secret', ['secrets.codecKeys.secretName='], "at '/secrets/codecKeys/secretName'"],
    ['a misspelt value', ['worker.replicas=3'], "additional properties 'worker' not allowed"],
    ['an environment of neither kind', ['environment=staging'], 'environment'],
    [
      'a network policy letting everyone reach the receivers',
      ['networkPolicy.ingressControllers=null'],
      'networkPolicy.ingressControllers: name at least one peer',
    ],
    [
      'notifications without the backend in the network policy',
      ['workers.notify.url=https://backend.example.com/events'],
      'networkPolicy.notify.peers',
    ],
    [
      'tokens without the Secret of a caller',
      ['temporal.token.enabled=true', 'temporal.token.secrets.webhooks=null'],
      'temporal.token.secrets.webhooks',
    ],
  ])('%s', (_what, sets, message) => {
    expect(refusal(sets)).toContain(message);
  });
});
