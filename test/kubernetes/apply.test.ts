/**
 * The rendered chart applied to a real API server (support/api-server.ts) with server-side apply
 * and a server-side dry run, as `helm install` would send it: every object is validated by the
 * API server of the Kubernetes release the chart targets, with the Prometheus Operator's CRDs
 * installed for the monitoring objects, in a namespace that enforces the restricted Pod Security
 * Standard. Each pod template is also submitted as a Pod, which Pod Security admission checks
 * (it only warns about workload objects). Two refusals show the check can fail.
 */
import { dump } from 'js-yaml';
import { type ApiServer, type KubectlRun, prometheusOperatorCrds, startApiServer } from './support/api-server';
import { type Manifest, NAMESPACE, render, renderText, VALUE_SETS, type ValueSet, workloads } from './support/chart';

let api: ApiServer;

const ok = (run: KubectlRun) => {
  if (run.status !== 0) throw new Error(`kubectl failed (${run.status}):\n${run.stderr}${run.stdout}`);
  return run;
};

/** A server-side apply with a server-side dry run: validated and admitted, never stored. */
const dryRun = (yaml: string) =>
  api.kubectl(
    ['apply', '--server-side', '--dry-run=server', '--field-manager=helm', '--namespace', NAMESPACE, '-f', '-'],
    yaml,
  );

const asYaml = (objects: readonly object[]) => objects.map((o) => dump(o, { lineWidth: -1 })).join('---\n');

/** A workload's pod template as the Pod its controller would create. */
function podOf(manifest: Manifest, template: ReturnType<typeof workloads>[number]['template']): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${manifest.metadata.name}-pod`, labels: template.metadata.labels },
    spec: template.spec,
  };
}

beforeAll(async () => {
  api = await startApiServer();
  ok(await api.kubectl(['apply', '--server-side', '-f', prometheusOperatorCrds()]));
  ok(
    await api.kubectl([
      'wait',
      '--for=condition=Established',
      '--timeout=60s',
      'crd/podmonitors.monitoring.coreos.com',
      'crd/prometheusrules.monitoring.coreos.com',
    ]),
  );
  // The namespace an operator installs into, enforcing the restricted standard, and the
  // `default` ServiceAccount the controller manager would have made there (the set-up job's).
  const restricted = 'restricted';
  ok(
    await api.kubectl(
      ['apply', '--server-side', '-f', '-'],
      asYaml([
        {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: {
            name: NAMESPACE,
            labels: {
              'pod-security.kubernetes.io/enforce': restricted,
              'pod-security.kubernetes.io/warn': restricted,
            },
          },
        },
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: NAMESPACE } },
      ]),
    ),
  );
}, 300_000);

afterAll(async () => {
  await api?.stop();
});

describe.each(Object.keys(VALUE_SETS) as ValueSet[])('the %s values', (set) => {
  it('are accepted whole by the API server, without a warning', async () => {
    const manifests = render(set);
    const run = ok(await dryRun(renderText(VALUE_SETS[set])));
    expect(run.stderr).toBe('');
    const applied = run.stdout.trim().split('\n');
    expect(applied).toHaveLength(manifests.length);
    for (const line of applied) expect(line).toMatch(/ serverside-applied \(server dry run\)$/);
  });

  it('make pods that pass the restricted Pod Security Standard', async () => {
    const manifests = render(set);
    // Pods need their ServiceAccount to exist: stored for real, the only object that is.
    const accounts = manifests.filter((m) => m.kind === 'ServiceAccount');
    ok(await api.kubectl(['apply', '--server-side', '--namespace', NAMESPACE, '-f', '-'], asYaml(accounts)));
    const pods = workloads(manifests).map(({ manifest, template }) => podOf(manifest, template));
    expect(pods.length).toBeGreaterThan(0);
    const run = ok(await dryRun(asYaml(pods)));
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toHaveLength(pods.length);
  });
});

describe('the check', () => {
  it('refuses a pod that may escalate its privileges, naming the standard', async () => {
    const [worker] = workloads(render('default')).filter((w) => w.manifest.metadata.name.includes('-worker-'));
    const pod = podOf(worker!.manifest, worker!.template) as { spec: { containers: Record<string, unknown>[] } };
    pod.spec.containers[0]!.securityContext = { allowPrivilegeEscalation: true };
    const run = await dryRun(asYaml([pod]));
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('violates PodSecurity "restricted:latest"');
    expect(run.stderr).toContain('allowPrivilegeEscalation != false');
  });

  it('refuses a Deployment whose selector does not select its pods', async () => {
    const [worker] = workloads(render('default')).filter((w) => w.manifest.metadata.name.includes('-worker-'));
    const broken = structuredClone(worker!.manifest) as Manifest & {
      spec: { selector: { matchLabels: Record<string, string> } };
    };
    broken.spec.selector.matchLabels['cardflow.dev/build'] = 'another';
    const run = await dryRun(asYaml([broken]));
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('`selector` does not match template `labels`');
  });
});
