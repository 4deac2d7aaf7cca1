/**
 * One-shot set-up of a self-hosted Temporal cluster for cardflow (compose's `temporal-setup`, or
 * `tsx tools/deploy/setup-temporal.ts` against any cluster), idempotent: registers the namespace
 * when missing, with `CARDFLOW_NAMESPACE_RETENTION_DAYS` (30; how long closed histories, and the
 * codec keys that decrypt them, are kept), and adds the project's search attributes. On Temporal
 * Cloud, namespaces come from the console or `tcld`, and this only adds the search attributes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { temporalSettingsFromEnv } from '../../platform/temporal/connection';
import { exitCodeFor, failureMessage, loadConfiguration } from '../../platform/config/startup';
import { cardflowSearchAttributes } from '../../domain/search-attributes';
import { createLogger } from '../../platform/logging/logger';
import { configured, readConfiguration } from '../../platform/config/schema';
import { processEnv } from '../../platform/config/process-env';

const IndexedValueType = temporal.api.enums.v1.IndexedValueType;
export const indexedType: Record<SearchAttributeType, temporal.api.enums.v1.IndexedValueType> = {
  [SearchAttributeType.TEXT]: IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  [SearchAttributeType.KEYWORD]: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  [SearchAttributeType.INT]: IndexedValueType.INDEXED_VALUE_TYPE_INT,
  [SearchAttributeType.DOUBLE]: IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
  [SearchAttributeType.BOOL]: IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
  [SearchAttributeType.DATETIME]: IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
  [SearchAttributeType.KEYWORD_LIST]: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

const logger = createLogger({ base: { service: 'temporal-setup' } });

/** The cluster starts after its schema job; retry the first connection for up to two minutes. */
async function connect(options: ReturnType<typeof temporalSettingsFromEnv>['connectionOptions']): Promise<Connection> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      return await Connection.connect({ ...options, connectTimeout: 5_000 });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      logger.info('waiting for the Temporal frontend', { address: options.address });
      await sleep(2_000);
    }
  }
}

const NOT_FOUND = 5;
const ALREADY_EXISTS = 6;

function grpcCode(error: unknown): number | undefined {
  return (error as { code?: number } | undefined)?.code;
}

async function namespaceExists(connection: Connection, namespace: string): Promise<boolean> {
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return true;
  } catch (error) {
    if (grpcCode(error) === NOT_FOUND) return false;
    throw error;
  }
}

async function main(): Promise<void> {
  const { connectionOptions, namespace, retentionDays } = loadConfiguration(() => {
    const config = readConfiguration(processEnv(), { withoutInterlock: true });
    return {
      ...temporalSettingsFromEnv(processEnv(), config),
      retentionDays: configured(config, 'CARDFLOW_NAMESPACE_RETENTION_DAYS'),
    };
  });
  const connection = await connect(connectionOptions);
  try {
    if (await namespaceExists(connection, namespace)) {
      // Temporal Cloud namespaces always land here: they are created in the Cloud console or with
      // tcld.
      logger.info('namespace exists', { namespace });
    } else {
      try {
        await connection.workflowService.registerNamespace({
          namespace,
          workflowExecutionRetentionPeriod: msToTs(`${retentionDays} days`),
          description: 'cardflow card-issuing workflows',
        });
        logger.info('namespace registered', { namespace, retentionDays });
      } catch (error) {
        if (grpcCode(error) !== ALREADY_EXISTS) throw error;
      }
    }
    // A new namespace takes a moment to be visible to the operator service.
    let existing: Record<string, unknown> = {};
    for (let attempt = 0; ; attempt++) {
      try {
        existing = (await connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {};
        break;
      } catch (error) {
        if (attempt >= 30) throw error;
        await sleep(1_000);
      }
    }
    const missing = cardflowSearchAttributes.filter((key) => !(key.name in existing));
    if (missing.length > 0) {
      await connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: Object.fromEntries(missing.map((key) => [key.name, indexedType[key.type]])),
      });
    }
    logger.info('search attributes ready', { namespace, added: missing.map((key) => key.name) });
  } finally {
    await connection.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    logger.error('temporal setup failed', { reason: failureMessage(error) });
    process.exitCode = exitCodeFor(error);
  });
}
