/**
 * A real Kubernetes API server for the chart's server-side check: etcd and kube-apiserver of the
 * release tools/scripts/kube-apiserver.sh builds, on loopback, with RBAC authorization, a static
 * admin token and a service-account key pair, and kubectl of the same release to talk to it. No
 * controller manager, scheduler or kubelet: objects are validated and admitted (Pod Security
 * included), never run.
 */
import { execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../../tools/scripts/lib/free-port';
import { ProcessGroup, waitUntil } from '../../../tools/scripts/cluster/processes';
import { REPO_ROOT } from './chart';

export interface KubectlRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface ApiServer {
  /** Runs kubectl against the server, `input` on its stdin. */
  kubectl(args: readonly string[], input?: string): Promise<KubectlRun>;
  stop(): Promise<void>;
}

const buildDir = (script: string) =>
  execFileSync('bash', [path.join(REPO_ROOT, 'tools/scripts', script)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();

export async function startApiServer(): Promise<ApiServer> {
  const bin = buildDir('kube-apiserver.sh');
  const dir = mkdtempSync(path.join(tmpdir(), 'cardflow-kube-apiserver-'));
  const group = new ProcessGroup(dir);
  try {
    const [etcdPort, peerPort, apiPort] = [await freePort(), await freePort(), await freePort()];
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const peerUrl = `http://127.0.0.1:${peerPort}`;
    const etcd = group.spawn({
      name: 'etcd',
      command: path.join(bin, 'etcd'),
      args: [
        '--name=cardflow',
        `--data-dir=${path.join(dir, 'etcd')}`,
        `--listen-client-urls=${etcdUrl}`,
        `--advertise-client-urls=${etcdUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=cardflow=${peerUrl}`,
        '--log-level=warn',
      ],
    });
    await waitUntil('etcd serving', async () => (await fetch(`${etcdUrl}/health`)).ok, { process: etcd });

    const token = randomBytes(24).toString('hex');
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const certDir = path.join(dir, 'certs');
    mkdirSync(certDir);
    writeFileSync(path.join(dir, 'sa.key'), keys.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(path.join(dir, 'sa.pub'), keys.publicKey.export({ type: 'spki', format: 'pem' }));
    // The one user: an administrator (system:masters), as whoever installs a chart is.
    writeFileSync(path.join(dir, 'tokens.csv'), `${token},cardflow-admin,cardflow-admin,"system:masters"\n`);
    const apiServer = group.spawn({
      name: 'kube-apiserver',
      command: path.join(bin, 'kube-apiserver'),
      args: [
        `--etcd-servers=${etcdUrl}`,
        '--bind-address=127.0.0.1',
        '--advertise-address=127.0.0.1',
        `--secure-port=${apiPort}`,
        // A self-signed serving certificate for localhost, written here.
        `--cert-dir=${certDir}`,
        `--token-auth-file=${path.join(dir, 'tokens.csv')}`,
        '--authorization-mode=RBAC',
        `--service-account-key-file=${path.join(dir, 'sa.pub')}`,
        `--service-account-signing-key-file=${path.join(dir, 'sa.key')}`,
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        '--service-cluster-ip-range=10.96.0.0/16',
        // No node serves the `kubernetes` Service's endpoints, and loopback may not be one.
        '--endpoint-reconciler-type=none',
      ],
    });
    writeFileSync(
      path.join(dir, 'kubeconfig'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'local',
            cluster: {
              server: `https://127.0.0.1:${apiPort}`,
              'certificate-authority': path.join(certDir, 'apiserver.crt'),
            },
          },
        ],
        users: [{ name: 'admin', user: { token } }],
        contexts: [{ name: 'local', context: { cluster: 'local', user: 'admin' } }],
        'current-context': 'local',
      }),
    );
    const kubectl = (args: readonly string[], input?: string) =>
      run(path.join(bin, 'kubectl'), ['--kubeconfig', path.join(dir, 'kubeconfig'), ...args], input);
    await waitUntil('kube-apiserver ready', async () => (await kubectl(['get', '--raw', '/readyz'])).status === 0, {
      process: apiServer,
      timeoutMs: 120_000,
    });
    return {
      kubectl,
      async stop() {
        await group.stopAll();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    // The error carries the logs' last lines; the folder goes with the processes.
    await group.stopAll();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function run(command: string, args: readonly string[], input?: string): Promise<KubectlRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** The folder of the Prometheus Operator's CRDs (tools/scripts/prometheus-operator-crds.sh). */
export function prometheusOperatorCrds(): string {
  return buildDir('prometheus-operator-crds.sh');
}
