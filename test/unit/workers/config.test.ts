import path from 'node:path';
import { fileStoreDirFromEnv, loadTemporalWorkerConfig } from '../../../workers/config';

describe('worker Temporal configuration', () => {
  it('defaults to the local dev server, namespace default, task queue cardflow', () => {
    const config = loadTemporalWorkerConfig({});
    expect(config).toMatchObject({ address: '127.0.0.1:7233', namespace: 'default', taskQueue: 'cardflow' });
    expect(config.connectionOptions.apiKey).toBeUndefined();
  });

  it('reads the Temporal Cloud variables through envconfig, as the client does', () => {
    const config = loadTemporalWorkerConfig({
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
    const config = loadTemporalWorkerConfig({
      CARDFLOW_TEMPORAL_ADDRESS: '127.0.0.1:17233',
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      CARDFLOW_TEMPORAL_NAMESPACE: 'cards',
    });
    expect(config).toMatchObject({ address: '127.0.0.1:17233', namespace: 'cards' });
  });
});

describe('worker file store', () => {
  it('defaults to .data/files under the working directory and honours CARDFLOW_FILE_STORE_DIR', () => {
    expect(fileStoreDirFromEnv({})).toBe(path.resolve('.data', 'files'));
    expect(fileStoreDirFromEnv({ CARDFLOW_FILE_STORE_DIR: '/srv/cardflow/files' })).toBe('/srv/cardflow/files');
  });
});
