/**
 * The log levels, in the Temporal SDK's names, and their order: the rule of `CARDFLOW_LOG_LEVEL`
 * and the logger's filter.
 */
import type { LogLevel } from '@temporalio/common';

/** Severity order of the SDK's levels. */
export const severity: Record<LogLevel, number> = { TRACE: 10, DEBUG: 20, INFO: 30, WARN: 40, ERROR: 50 };

/**
 * Reads a level name (`info`, `WARN`, ...); throws on anything else, naming the accepted values.
 */
export function parseLogLevel(text: string, source = 'log level'): LogLevel {
  const upper = text.trim().toUpperCase();
  if (upper in severity) return upper as LogLevel;
  throw new Error(`${source} "${text}" is not one of ${Object.keys(severity).join(', ')}`);
}
