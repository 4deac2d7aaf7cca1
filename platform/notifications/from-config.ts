/**
 * The notification settings and the undelivered store the configuration names
 * (platform/config/schema.ts: CARDFLOW_NOTIFY_*, CARDFLOW_DATABASE_URL), for the worker and the
 * CLI.
 */
import path from 'node:path';
import { configured, type ConfigurationSlice } from '../config/schema';
import type { NotificationTarget } from './sender';
import { STANDARD_SECRET_PREFIX, standardSecretKey } from './signature';
import { openPostgresUndeliveredStore } from './postgres-store';
import { openFileUndeliveredStore, type UndeliveredStore } from './store';

export interface NotificationSettings {
  target: NotificationTarget;
  deliveryWindowMs: number;
}

/**
 * Undefined when no URL is configured. A URL without its secret, or a secret that is not one of
 * the format (Standard Webhooks wants `whsec_` secrets), is a configuration error naming the
 * variable. The URL's scheme is the interlock's to check (platform/config/environment.ts).
 */
export function notificationSettings(
  config: ConfigurationSlice<
    | 'CARDFLOW_NOTIFY_URL'
    | 'CARDFLOW_NOTIFY_SECRET'
    | 'CARDFLOW_NOTIFY_PREVIOUS_SECRET'
    | 'CARDFLOW_NOTIFY_FORMAT'
    | 'CARDFLOW_NOTIFY_WINDOW'
  >,
): NotificationSettings | undefined {
  const url = config.CARDFLOW_NOTIFY_URL;
  if (!url) return undefined;
  const current = config.CARDFLOW_NOTIFY_SECRET;
  if (!current)
    throw new Error('CARDFLOW_NOTIFY_SECRET (or CARDFLOW_NOTIFY_SECRET_FILE): required with CARDFLOW_NOTIFY_URL');
  const previous = config.CARDFLOW_NOTIFY_PREVIOUS_SECRET;
  const format = configured(config, 'CARDFLOW_NOTIFY_FORMAT');
  const secrets = [current, ...(previous ? [previous] : [])];
  if (format === 'standard-webhooks') {
    const problems = secrets
      .filter((s) => standardSecretKey(s.value) === undefined || !s.value.startsWith(STANDARD_SECRET_PREFIX))
      .map(
        (s) =>
          `${s.from}: with CARDFLOW_NOTIFY_FORMAT=standard-webhooks, must be ${STANDARD_SECRET_PREFIX} and the base64 of 24 to 64 random bytes`,
      );
    if (problems.length > 0) throw new Error(problems.join('; '));
  }
  if (previous && previous.value === current.value)
    throw new Error(`${previous.from}: the same secret as ${current.from}; unset it once the rotation is done`);
  return {
    target: { url, secrets: secrets.map((s) => s.value), format },
    deliveryWindowMs: configured(config, 'CARDFLOW_NOTIFY_WINDOW'),
  };
}

/** PostgreSQL with CARDFLOW_DATABASE_URL, else the file under CARDFLOW_NOTIFY_DATA_DIR. */
export function openUndeliveredStore(
  config: ConfigurationSlice<'CARDFLOW_DATABASE_URL' | 'CARDFLOW_NOTIFY_DATA_DIR'>,
): Promise<UndeliveredStore> {
  const url = config.CARDFLOW_DATABASE_URL?.value;
  if (url) return openPostgresUndeliveredStore(url);
  return openFileUndeliveredStore(path.resolve(configured(config, 'CARDFLOW_NOTIFY_DATA_DIR')));
}
