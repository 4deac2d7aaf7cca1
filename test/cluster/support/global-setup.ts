/**
 * Jest global setup of the cluster tier: ONE production-shaped Temporal cluster for the whole run
 * (tools/scripts/cluster/: a throwaway PostgreSQL, the schema by tools/deploy/temporal-schema.sh,
 * frontend, matching, worker service, internal frontend and two history hosts as processes, roles
 * on (every caller's token by tools/scripts/make-tokens.sh), namespace and search attributes by
 * tools/deploy/setup-temporal.ts), plus the control endpoint tests use to kill and restart parts of
 * it. Each test file starts cardflow's own processes on it (support/world.ts).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setUpCardflowDatabase } from '../../../tools/scripts/cluster/cardflow-database';
import { startPostgres } from '../../../tools/scripts/cluster/postgres';
import { ProcessGroup } from '../../../tools/scripts/cluster/processes';
import { startTemporalCluster } from '../../../tools/scripts/cluster/temporal-cluster';
import { CLUSTER_ENV, controlUrl, startControlServer } from './control';

const TEST_HISTORY_SHARDS = 4;

const stateKey = Symbol.for('cardflow.test.cluster');
type Holder = typeof globalThis & { [stateKey]?: { group: ProcessGroup; control: Server; dir: string } };

export async function takeStartedCluster() {
  const holder = globalThis as Holder;
  const state = holder[stateKey];
  delete holder[stateKey];
  return state;
}

/**
 * The production dynamic configuration plus what lets the versioning test see a rollout end in
 * seconds: the server re-checks a draining version every 3 minutes after a 3-minute grace by
 * default, and counts a stopped worker's version as polled for 5 minutes (which blocks retiring
 * it).
 */
function testDynamicConfig(dir: string): string {
  const file = join(dir, 'dynamic-config.yaml');
  const production = readFileSync(join(__dirname, '../../../tools/deploy/temporal/dynamic-config.yaml'), 'utf8');
  const faster = [
    'matching.wv.VersionDrainageStatusRefreshInterval:',
    '  - value: 3s',
    'matching.wv.VersionDrainageStatusVisibilityGracePeriod:',
    '  - value: 3s',
    'matching.PollerHistoryTTL:',
    '  - value: 10s',
    '',
  ].join('\n');
  writeFileSync(file, `${production}\n# The cluster tier's own (test/cluster/support/global-setup.ts).\n${faster}`);
  return file;
}

export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-cluster-tier-'));
  const group = new ProcessGroup(dir);
  try {
    const pg = await startPostgres(group, join(dir, 'postgresql'));
    const temporal = await startTemporalCluster(group, pg, {
      namespace: 'cardflow',
      tlsDir: join(dir, 'temporal-tls'),
      authDir: join(dir, 'temporal-auth'),
      dynamicConfigFile: testDynamicConfig(dir),
      // Four, not the production 512: still spread over both history hosts (killing one moves
      // shards that hold running workflows) without 512 shards' memory and idle polling on a
      // machine that runs the whole tier. The count is what a test cluster may choose freely.
      historyShards: TEST_HISTORY_SHARDS,
    });
    const control = await startControlServer(pg, temporal, join(dir, 'backups'));
    (globalThis as Holder)[stateKey] = { group, control, dir };
    process.env[CLUSTER_ENV.address] = temporal.address;
    process.env[CLUSTER_ENV.tlsDir] = temporal.tlsDir;
    process.env[CLUSTER_ENV.authDir] = temporal.authDir;
    process.env[CLUSTER_ENV.logDir] = dir;
    process.env[CLUSTER_ENV.namespace] = temporal.namespace;
    process.env[CLUSTER_ENV.databaseUrl] = await setUpCardflowDatabase(pg);
    process.env[CLUSTER_ENV.temporalDatabaseUrl] = pg.url('temporal');
    process.env[CLUSTER_ENV.control] = controlUrl(control);
    process.env[CLUSTER_ENV.temporalMetrics] = Object.values(temporal.metricsTargets).join(',');
    process.env[CLUSTER_ENV.historyHosts] = Object.entries(temporal.historyAddresses)
      .map(([name, address]) => `${name}=${address}`)
      .join(',');
    process.stderr.write(`\ncluster tier: cluster up in ${Date.now() - started} ms, logs in ${dir}\n`);
  } catch (error) {
    await group.stopAll();
    throw error;
  }
}
