import { type Configuration, readConfiguration } from '../../platform/config/schema';

/**
 * `env` read by the configuration schema, as an entry point reads it (without the provider
 * interlock).
 */
export function configured(env: Record<string, string | undefined>): Configuration {
  return readConfiguration(env, { withoutInterlock: true });
}
