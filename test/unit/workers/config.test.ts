import { configured } from '../../support/configured';
import { loadTemporalWorkerConfig, workerTuning } from '../../../workers/config';

const workerConfigOf = (env: Record<string, string>) => loadTemporalWorkerConfig(env, configured(env));

describe('worker Temporal configuration', () => {
  it('defaults to the local dev server, namespace default, task queue cardflow', () => {
    const config = loadTemporalWorkerConfig({}, {});
    expect(config).toMatchObject({ address: '127.0.0.1:7233', namespace: 'default', taskQueue: 'cardflow' });
    expect(config.connectionOptions.apiKey).toBeUndefined();
  });

  it('reads the Temporal Cloud variables through envconfig, as the client does', () => {
    const config = workerConfigOf({
      TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233',
      TEMPORAL_NAMESPACE: 'ns.acct',
      TEMPORAL_API_KEY: 'secret-api-key',
      CARDFLOW_TASK_QUEUE: 'cards-eu',
    });
    expect(config).toMatchObject({ address: 'ns.acct.tmprl.cloud:7233', namespace: 'ns.acct', taskQueue: 'cards-eu' });
    expect(config.connectionOptions.apiKey).toBe('secret-api-key');
    // An API key implies TLS (envconfig turns it on unless told otherwise).
    expect(config.connectionOptions.tls).toBeTruthy();
  });

  it('accepts CARDFLOW_TEMPORAL_ADDRESS / _NAMESPACE as aliases, preferring them', () => {
    const config = workerConfigOf({
      CARDFLOW_TEMPORAL_ADDRESS: '127.0.0.1:17233',
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      CARDFLOW_TEMPORAL_NAMESPACE: 'cards',
    });
    expect(config).toMatchObject({ address: '127.0.0.1:17233', namespace: 'cards' });
  });
});

describe('worker tuning', () => {
  it('leaves the defaults when nothing is set, and reads the cache, activity and probe limits', () => {
    // The workflow threads' heap: 192 cached at 2 MiB each plus 128 MiB of headroom.
    expect(workerTuning(configured({}))).toEqual({ workflowHeapMib: 512, probes: {} });
    expect(workerTuning(configured({ CARDFLOW_WORKER_CACHE_BUDGET_MIB: '1024' }))).toEqual({
      maxCachedWorkflows: 512,
      workflowHeapMib: 1152,
      probes: {},
    });
    expect(workerTuning(configured({ CARDFLOW_PROBES_PER_SECOND: '5', CARDFLOW_PROBE_SLOTS: '10' }))).toEqual({
      workflowHeapMib: 512,
      probes: { perSecond: 5, slots: 10 },
    });
    expect(workerTuning(configured({ CARDFLOW_WORKER_HEAP_MIB: '900' }))).toEqual({ workflowHeapMib: 900, probes: {} });
    expect(
      workerTuning(
        configured({
          CARDFLOW_WORKER_MAX_CACHED_WORKFLOWS: '500',
          CARDFLOW_WORKER_CACHE_BUDGET_MIB: '64',
          CARDFLOW_WORKER_MAX_CONCURRENT_ACTIVITIES: '50',
        }),
      ),
    ).toEqual({
      maxCachedWorkflows: 500,
      maxConcurrentActivityTaskExecutions: 50,
      workflowHeapMib: 1128,
      probes: {},
    });
  });

  it('names every malformed variable and its rule', () => {
    expect(() =>
      workerTuning(
        configured({
          CARDFLOW_WORKER_MAX_CACHED_WORKFLOWS: 'lots',
          CARDFLOW_WORKER_MAX_CONCURRENT_ACTIVITIES: '0',
          CARDFLOW_PROBES_PER_SECOND: '-1',
          CARDFLOW_WORKER_HEAP_MIB: '16',
        }),
      ),
    ).toThrow(
      /CARDFLOW_WORKER_MAX_CACHED_WORKFLOWS: must be a whole number from 0 to 9999999\n- CARDFLOW_WORKER_HEAP_MIB: must be a whole number from 64 to 9999999\n- CARDFLOW_WORKER_MAX_CONCURRENT_ACTIVITIES: must be a whole number from 1 to 9999999\n- CARDFLOW_PROBES_PER_SECOND: must be a whole number from 1 to 9999999/,
    );
  });
});
