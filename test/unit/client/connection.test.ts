import { connectTemporalClient, temporalSettingsFromEnv } from '../../../platform/temporal/connection';
import { readConfiguration } from '../../../platform/config/schema';
import { CodecKeyError } from '../../../platform/codec/keys';
import { EnvironmentError } from '../../../platform/config/environment';

// Nothing listens there: a refusal that came from connecting would be a connection error, not
// these.
const nowhere = { TEMPORAL_ADDRESS: '127.0.0.1:9' };

describe('connectTemporalClient refuses before contacting Temporal', () => {
  it('a mixed environment, with the interlock message', async () => {
    await expect(
      connectTemporalClient({ env: { ...nowhere, CARDFLOW_PROVIDER_BASE_URL: 'https://api.provider.example.com' } }),
    ).rejects.toThrow(EnvironmentError);
  });

  it('no payload keys where it may not invent one, naming the variables', async () => {
    const refused = connectTemporalClient({
      env: { ...nowhere, CARDFLOW_ENV: 'production', NODE_ENV: 'production' },
      connectTimeoutMs: 200,
    });
    await expect(refused).rejects.toThrow(CodecKeyError);
    await expect(refused).rejects.toThrow(/set CARDFLOW_CODEC_KEYS=.* or CARDFLOW_CODEC_KEYS_FILE=/);
  });
});

it('takes the address, namespace and API key as the configuration parsed them, not from the raw environment again', () => {
  const env = { TEMPORAL_ADDRESS: ' temporal.internal:7233 ', TEMPORAL_NAMESPACE: 'payments', TEMPORAL_API_KEY: ' ' };
  const settings = temporalSettingsFromEnv(env, readConfiguration(env));
  expect(settings.connectionOptions.address).toBe('temporal.internal:7233');
  expect(settings.namespace).toBe('payments');
  // A blank key is no key: no TLS switched on for it.
  expect(settings.connectionOptions.apiKey).toBeUndefined();
  expect(settings.connectionOptions.tls).toBeUndefined();
});

it('reads a blank address or namespace as unset, as the schema does, never hands the blank to envconfig', () => {
  const env = { TEMPORAL_ADDRESS: '  ', TEMPORAL_NAMESPACE: ' ' };
  const settings = temporalSettingsFromEnv(env, readConfiguration(env));
  expect(settings.connectionOptions.address).toBe('127.0.0.1:7233');
  expect(settings.namespace).toBe('default');
});
