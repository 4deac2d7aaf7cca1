/**
 * The notification settings and the undelivered store the configuration names (platform/config/schema.ts:
 * CARDFLOW_NOTIFY_*, CARDFLOW_DATABASE_URL), for the worker and the CLI.
 */
import path from 'node:path';
import { configured, type ConfigurationSlice } from '../config/schema';
import type { NotificationTarget } from './sender';
import { openPostgresUndeliveredStore } from './postgres-store';
import { openFileUndeliveredStore, type UndeliveredStore } from './store';

export interface NotificationSettings {
  target: NotificationTarget;
  deliveryWindowMs: number;
}

/** Undefined when no URL is configured; a URL without its secret is a configuration error. */
export function notificationSettings(
  config: ConfigurationSlice<'CARDFLOW_NOTIFY_URL' | 'CARDFLOW_NOTIFY_SECRET' | 'CARDFLOW_NOTIFY_WINDOW'>,
): NotificationSettings | undefined {
  const url = config.CARDFLOW_NOTIFY_URL;
  if (!url) return undefined;
  const secret = config.CARDFLOW_NOTIFY_SECRET?.value;
  if (!secret)
    throw new Error('CARDFLOW_NOTIFY_SECRET (or CARDFLOW_NOTIFY_SECRET_FILE): required with CARDFLOW_NOTIFY_URL');
  return { target: { url, secret }, deliveryWindowMs: configured(config, 'CARDFLOW_NOTIFY_WINDOW') };
}

/** PostgreSQL with CARDFLOW_DATABASE_URL, else the file under CARDFLOW_NOTIFY_DATA_DIR. */
export function openUndeliveredStore(
  config: ConfigurationSlice<'CARDFLOW_DATABASE_URL' | 'CARDFLOW_NOTIFY_DATA_DIR'>,
): Promise<UndeliveredStore> {
  const url = config.CARDFLOW_DATABASE_URL?.value;
  if (url) return openPostgresUndeliveredStore(url);
  return openFileUndeliveredStore(path.resolve(configured(config, 'CARDFLOW_NOTIFY_DATA_DIR')));
}
