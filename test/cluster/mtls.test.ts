/**
 * The cluster runs locked down as production does (tools/deploy/temporal/cluster.yaml): its
 * frontend takes only callers presenting a certificate of the cluster's CA, made by the documented
 * step (tools/scripts/make-certs.sh), and it runs an authorizer, so no `--allow-no-auth`. A
 * plaintext client, a TLS client without a certificate and one whose certificate another CA signed
 * are refused, even with a valid token; a client with its certificate and its token reads the
 * namespace, and an operator's `cardflow` CLI configured by `TEMPORAL_TLS_*` and
 * `TEMPORAL_API_KEY_FILE` alone (platform/temporal/connection.ts, through `@temporalio/envconfig`)
 * reaches the server. What each token may do: roles.test.ts. The same through haproxy passing TCP
 * through (a balancer in front of frontends): the server, not the balancer, checks the certificate,
 * and the server's certificate names `haproxy`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Connection, type TLSConfig } from '@temporalio/client';
import { runCli } from '../../client/cli/main';
import { ExitCodes } from '../../client/cli/context';
import { startTcpPassthrough } from '../../tools/scripts/cluster/haproxy';
import { ProcessGroup } from '../../tools/scripts/cluster/processes';
import { temporalCallerEnv, temporalToken } from '../../tools/scripts/cluster/temporal-auth';
import { makeTemporalCerts, temporalTlsOptions } from '../../tools/scripts/cluster/temporal-tls';
import { CLUSTER_ENV, clusterSettings } from './support/control';

let otherCa: string;
let dir: string;
let group: ProcessGroup;
/** haproxy in TCP mode in front of the frontend. */
let balanced: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'cardflow-mtls-'));
  otherCa = path.join(dir, 'other-ca');
  await makeTemporalCerts(otherCa);
  group = new ProcessGroup(dir);
  balanced = (await startTcpPassthrough(group, dir, 'temporal', [clusterSettings().address])).address;
});
afterAll(async () => {
  await group?.stopAll();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * What the frontend answers a client connecting with `tls` and a reader's token: the namespace's
 * name, or the refusal.
 */
async function describeNamespaceWith(tls: TLSConfig | undefined, address = clusterSettings().address): Promise<string> {
  const { namespace, authDir } = clusterSettings();
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({
      address,
      connectTimeout: 3_000,
      apiKey: temporalToken(authDir, 'reader'),
      // Plaintext when none is given (an API key would switch TLS on by itself).
      tls: tls ?? false,
    });
    const answer = await connection.workflowService.describeNamespace({ namespace });
    return `namespace ${answer.namespaceInfo?.name}`;
  } catch (error) {
    return `refused: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await connection?.close();
  }
}

it('refuses a plaintext client, a TLS client without a certificate, and a certificate of another CA', async () => {
  const { tlsDir } = clusterSettings();
  const ours = temporalTlsOptions(tlsDir, 'client');
  const foreign = temporalTlsOptions(otherCa, 'client');

  expect(await describeNamespaceWith(undefined)).toMatch(/^refused: /);
  expect(
    await describeNamespaceWith({
      serverNameOverride: ours.serverNameOverride!,
      serverRootCACertificate: ours.serverRootCACertificate!,
    }),
  ).toMatch(/^refused: /);
  expect(await describeNamespaceWith({ ...ours, clientCertPair: foreign.clientCertPair! })).toMatch(/^refused: /);
});

it('serves a client presenting its certificate and its token', async () => {
  const { tlsDir, namespace } = clusterSettings();
  expect(await describeNamespaceWith(temporalTlsOptions(tlsDir, 'client'))).toBe(`namespace ${namespace}`);
});

it('through haproxy passing TCP through: served with the certificate (server name haproxy), refused without', async () => {
  const { tlsDir, namespace } = clusterSettings();
  const ours = temporalTlsOptions(tlsDir, 'client');
  expect(await describeNamespaceWith({ ...ours, serverNameOverride: 'haproxy' }, balanced)).toBe(
    `namespace ${namespace}`,
  );
  expect(
    await describeNamespaceWith(
      { serverNameOverride: 'haproxy', serverRootCACertificate: ours.serverRootCACertificate! },
      balanced,
    ),
  ).toMatch(/^refused: /);
  expect(await describeNamespaceWith(undefined, balanced)).toMatch(/^refused: /);
});

it("an operator's cardflow CLI connects by TEMPORAL_TLS_* and its token alone, and without them is refused", async () => {
  const cluster = clusterSettings();
  const { address, namespace } = cluster;
  // A deployment no worker polls as: the server's own answer says the call got through.
  const cli = async (env: Record<string, string>) => {
    const err: string[] = [];
    const code = await runCli(['deployment', 'list', '--deployment', 'mtls-nobody'], {
      out: () => undefined,
      err: (l) => err.push(l),
      env: {
        TEMPORAL_ADDRESS: address,
        TEMPORAL_NAMESPACE: namespace,
        // One try: a refused handshake is not a restart to retry through.
        CARDFLOW_TEMPORAL_RIDE_OUT_MS: '0',
        ...env,
      },
    });
    return { code, err: err.join('\n') };
  };
  const answered = 'deployment mtls-nobody does not exist';
  expect(await cli(temporalCallerEnv(cluster, 'operator'))).toEqual({
    code: ExitCodes.failed,
    err: expect.stringContaining(answered),
  });
  const without = await cli({});
  expect(without.code).not.toBe(ExitCodes.done);
  expect(without.err).not.toContain(answered);
});

it('runs an authorizer: the frontend logs no no-op authorizer warning', () => {
  const log = readFileSync(path.join(process.env[CLUSTER_ENV.logDir]!, 'temporal-frontend.log'), 'utf8');
  expect(log).not.toContain('Not using any authorizer');
  expect(log).not.toContain('allow-no-auth');
});
