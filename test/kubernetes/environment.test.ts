/**
 * The environment the chart gives each process, held to the configuration schema
 * (platform/config/schema.ts): every variable it sets is declared there (or is one of
 * @temporalio/envconfig's own), secrets come only as `_FILE` paths into the mounted Secrets, the
 * variables a replica in a cluster needs are set, and the process's own reader accepts the whole
 * environment, with the secret files the pod mounts, as it would at start.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { targetOf } from '../../tools/deploy/setup-database';
import { readConfiguration, VARIABLES, type VariableName } from '../../platform/config/schema';
import { temporalSettingsFromEnv } from '../../platform/temporal/connection';
import { codecServerOptions } from '../../platform/codec/config';
import { resolveKeyring } from '../../platform/codec/dev-keys';
import { receiverSettings } from '../../webhooks/main';
import { workerSettings } from '../../workers/main';
import {
  type Container,
  containersOf,
  envOf,
  type PodSpec,
  REPO_ROOT,
  render,
  renderText,
  parseManifests,
  VALUE_SETS,
  type ValueSet,
  workloads,
} from './support/chart';
import { materializeSecrets, removeMaterializedSecrets } from './support/secret-files';

/**
 * @temporalio/envconfig's variables the chart sets, which the schema leaves to envconfig
 * (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and TEMPORAL_API_KEY are the schema's own). The test
 * below checks that envconfig takes each of them.
 */
const ENVCONFIG_VARIABLES = [
  'TEMPORAL_TLS',
  'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  'TEMPORAL_TLS_SERVER_NAME',
  'TEMPORAL_TLS_CLIENT_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_KEY_PATH',
];

/** The image's own environment (tools/deploy/Dockerfile's ENV lines), under the chart's. */
const IMAGE_ENV: Record<string, string> = Object.fromEntries(
  [...readFileSync(path.join(REPO_ROOT, 'tools/deploy/Dockerfile'), 'utf8').matchAll(/^ENV (\w+)=(\S+)$/gm)].map(
    (m) => [m[1]!, m[2]!],
  ),
);

type Env = Record<string, string>;

interface Process {
  /**
   * What a replica in a cluster needs besides what its reader insists on: shared stores (several
   * replicas), listeners on the pod's address (probes, metrics), the production interlock.
   */
  required: VariableName[];
  /** The process's own reading of its configuration, as at start; throws what it would exit on. */
  read: (env: Env) => unknown;
}

const TEMPORAL_CALLER: VariableName[] = ['TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE'];

/** The processes the chart runs, by container name. */
const PROCESSES: Record<string, Process> = {
  worker: {
    required: [
      'CARDFLOW_ENV',
      ...TEMPORAL_CALLER,
      'CARDFLOW_CODEC_KEYS',
      'CARDFLOW_PROVIDER_BASE_URL',
      'CARDFLOW_PROVIDER_API_KEY',
      'CARDFLOW_MERCHANT_PRIVATE_KEY',
      'CARDFLOW_PLATFORM_PUBLIC_KEY',
      'CARDFLOW_DATABASE_URL',
      'CARDFLOW_WORKER_HEALTH_ADDRESS',
      'CARDFLOW_METRICS_ADDRESS',
    ],
    read: (env) => workerSettings(env),
  },
  webhooks: {
    required: [
      'CARDFLOW_ENV',
      ...TEMPORAL_CALLER,
      'CARDFLOW_CODEC_KEYS',
      'CARDFLOW_PLATFORM_PUBLIC_KEY',
      'CARDFLOW_DATABASE_URL',
      'CARDFLOW_WEBHOOK_HOST',
      'CARDFLOW_WEBHOOK_PORT',
      'CARDFLOW_METRICS_ADDRESS',
    ],
    read: (env) => receiverSettings(env),
  },
  'codec-server': {
    required: [
      'CARDFLOW_ENV',
      'CARDFLOW_CODEC_KEYS',
      'CARDFLOW_CODEC_SERVER_HOST',
      'CARDFLOW_CODEC_SERVER_PORT',
      'CARDFLOW_CODEC_SERVER_TOKEN',
      'CARDFLOW_CODEC_SERVER_ORIGINS',
      'CARDFLOW_METRICS_ADDRESS',
    ],
    read: (env) => {
      const config = readConfiguration(env);
      return { ...codecServerOptions(config), ...resolveKeyring(config) };
    },
  },
  // The set-up steps talk to no provider: they read without the interlock, as they do at start.
  'database-setup': {
    required: ['CARDFLOW_DATABASE_ADMIN_URL', 'CARDFLOW_DATABASE_URL'],
    read: (env) => {
      const config = readConfiguration(env, { withoutInterlock: true });
      return targetOf(config.CARDFLOW_DATABASE_URL!.value);
    },
  },
  'temporal-setup': {
    required: TEMPORAL_CALLER,
    read: (env) => temporalSettingsFromEnv(env, readConfiguration(env, { withoutInterlock: true })),
  },
};

afterAll(removeMaterializedSecrets);

const declared = (name: string): Process | undefined => PROCESSES[name];

/** Every container of the chart's workloads with its pod, for a rendered manifest set. */
function containers(manifests: ReturnType<typeof render>): { pod: PodSpec; container: Container; owner: string }[] {
  return workloads(manifests).flatMap(({ manifest, template }) =>
    containersOf(template.spec).map((container) => ({
      pod: template.spec,
      container,
      owner: `${manifest.kind}/${manifest.metadata.name}`,
    })),
  );
}

function secretsMount(container: Container): string {
  const mount = container.volumeMounts?.find((m) => m.name === 'secrets');
  if (!mount) throw new Error(`container ${container.name} mounts no secrets`);
  return mount.mountPath;
}

describe.each(Object.keys(VALUE_SETS) as ValueSet[])('the %s values', (set) => {
  const all = containers(render(set));

  it('run every process the chart knows, and only those', () => {
    const names = new Set(all.map((c) => c.container.name));
    expect([...names].sort()).toEqual(Object.keys(PROCESSES).sort());
  });

  it.each(all.map((c) => [c.owner, c.container.name, c] as const))(
    '%s (%s) sets only declared variables, secrets as files',
    (_owner, _name, { container }) => {
      const problems: string[] = [];
      for (const variable of container.env ?? []) {
        const { name } = variable;
        if (variable.valueFrom !== undefined) problems.push(`${name}: from valueFrom; secrets are mounted files`);
        const base = name.replace(/_FILE$/, '') as VariableName;
        const declaration = VARIABLES[base] as (typeof VARIABLES)[VariableName] | undefined;
        if (ENVCONFIG_VARIABLES.includes(name)) continue;
        if (!declaration) problems.push(`${name}: not declared in platform/config/schema.ts`);
        else if (name.endsWith('_FILE') && !declaration.fileForm) problems.push(`${name}: ${base} has no file form`);
        else if (!name.endsWith('_FILE') && declaration.fileForm)
          problems.push(`${name}: a secret, set inline; the chart must mount it and set ${name}_FILE`);
        if (name.endsWith('_FILE') && !variable.value?.startsWith(`${secretsMount(container)}/`))
          problems.push(`${name}=${variable.value}: not a file of the mounted secrets`);
      }
      expect(problems).toEqual([]);
    },
  );

  it.each(all.map((c) => [c.owner, c.container.name, c] as const))(
    '%s (%s) sets what a replica in a cluster needs',
    (_owner, name, { container }) => {
      const env = envOf(container);
      const process = declared(name);
      expect(process).toBeDefined();
      const missing = process!.required.filter((v) => env[v] === undefined && env[`${v}_FILE`] === undefined);
      expect(missing).toEqual([]);
    },
  );

  it.each(all.map((c) => [c.owner, c.container.name, c] as const))(
    "%s (%s) is accepted by the process's own reader, with the mounted files",
    (_owner, name, { pod, container }) => {
      const { env } = materializeSecrets(pod, secretsMount(container), { ...IMAGE_ENV, ...envOf(container) });
      expect(() => declared(name)!.read(env)).not.toThrow();
    },
  );
});

describe('the Temporal connection variables', () => {
  it("are envconfig's own: each one reaches the connection options", () => {
    // The production example names the frontend's certificate host, so every one is set.
    const worker = containers(render('production')).find((c) => c.container.name === 'worker')!;
    const rendered = envOf(worker.container);
    for (const name of ENVCONFIG_VARIABLES) expect(rendered[name]).toBeDefined();
    const { env, files } = materializeSecrets(worker.pod, secretsMount(worker.container), {
      ...IMAGE_ENV,
      ...rendered,
    });
    const { connectionOptions } = temporalSettingsFromEnv(env, readConfiguration(env));
    const tls = connectionOptions.tls as {
      serverNameOverride?: string;
      serverRootCACertificate?: Uint8Array;
      clientCertPair?: { crt: Uint8Array; key: Uint8Array };
    };
    const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString();
    expect(tls.serverNameOverride).toBe('temporal-frontend');
    expect(text(tls.serverRootCACertificate)).toBe(files['temporal-tls/ca.pem']);
    expect(text(tls.clientCertPair?.crt)).toBe(files['temporal-tls/client.pem']);
    expect(text(tls.clientCertPair?.key)).toBe(files['temporal-tls/client-key.pem']);
  });

  it('carry a per-caller token from its own Secret when tokens are on', () => {
    const manifests = parseManifests(renderText(VALUE_SETS.production, ['temporal.token.enabled=true']));
    const callers = containers(manifests).filter((c) => c.container.name !== 'codec-server');
    const secretsRead = new Set<string>();
    for (const { pod, container } of callers) {
      if (container.name === 'database-setup') continue;
      const { env, files } = materializeSecrets(pod, secretsMount(container), { ...IMAGE_ENV, ...envOf(container) });
      const config = readConfiguration(env, { withoutInterlock: true });
      expect(config.TEMPORAL_API_KEY).toEqual({ value: files['temporal-token'], from: 'TEMPORAL_API_KEY_FILE' });
      const volume = pod.volumes?.find((v) => v.name === 'secrets');
      const token = volume?.projected?.sources.find((s) => s.secret?.items.some((i) => i.path === 'temporal-token'));
      secretsRead.add(token!.secret!.name);
    }
    expect([...secretsRead].sort()).toEqual([
      'cardflow-temporal-token-setup',
      'cardflow-temporal-token-webhooks',
      'cardflow-temporal-token-worker',
    ]);
  });
});
