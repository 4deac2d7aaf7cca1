/**
 * cardflow's structured logger: one JSON object per line, `{"level","time","msg",...fields}`, every
 * field passed through the shared redaction list (`platform/logging/redact.ts`).
 *
 * It implements the Temporal SDK's `Logger` interface, so the same object serves our own code and
 * the worker runtime: `Runtime.install({ logger: createLogger() })`. The SDK's metadata
 * (`workflowId`, `runId`, `activityId`, `taskQueue`, `sdkComponent`, ...) becomes top-level fields.
 * A line written inside a span carries its `trace_id` and `span_id`
 * (platform/logging/trace-context.ts).
 */
import type { LogLevel, LogMetadata, Logger } from '@temporalio/common';
import { readVariable, schemaDefault } from '../config/schema';
import { severity } from '../config/values/log-level';
import { redact, scrubText } from './redact';
import { activeTraceFields } from './trace-context';

export type { LogLevel };

/**
 * The SDK's own timestamp for forwarded core logs (nanoseconds since the epoch, a bigint), under
 * `Symbol.for('log_timestamp')` (`LogTimestamp` of `@temporalio/worker`); logging does not import
 * the worker package for it.
 */
const logTimestamp = Symbol.for('log_timestamp');

/** Field names the record itself owns; metadata cannot overwrite them. */
const reserved = new Set(['level', 'time', 'msg']);

export interface LoggerOptions {
  /** Lowest level written. Default `CARDFLOW_LOG_LEVEL`, else its schema default. */
  level?: LogLevel;
  /** Fields on every record (service name, ...). Redacted like any other field. */
  base?: LogMetadata;
  /** Where a finished line goes (without the newline). Default: `process.stderr`. */
  write?: (line: string) => void;
  /** Clock, for tests. */
  now?: () => Date;
}

/** A Temporal-compatible logger that writes redacted JSON lines. */
export interface StructuredLogger extends Logger {
  readonly level: LogLevel;
  /** A logger that adds `fields` to every record (e.g. `{ workflowId }` for one request). */
  child(fields: LogMetadata): StructuredLogger;
  log(level: LogLevel, message: string, meta?: LogMetadata): void;
  trace(message: string, meta?: LogMetadata): void;
  debug(message: string, meta?: LogMetadata): void;
  info(message: string, meta?: LogMetadata): void;
  warn(message: string, meta?: LogMetadata): void;
  error(message: string, meta?: LogMetadata): void;
}

/** Creates a logger. See {@link LoggerOptions} for the defaults. */
export function createLogger(options: LoggerOptions = {}): StructuredLogger {
  const level = options.level ?? readVariable('CARDFLOW_LOG_LEVEL') ?? schemaDefault('CARDFLOW_LOG_LEVEL');
  const write = options.write ?? ((line: string) => void process.stderr.write(`${line}\n`));
  return new JsonLogger(level, options.base ?? {}, write, options.now ?? (() => new Date()));
}

class JsonLogger implements StructuredLogger {
  constructor(
    readonly level: LogLevel,
    private readonly base: LogMetadata,
    private readonly write: (line: string) => void,
    private readonly now: () => Date,
  ) {}

  child(fields: LogMetadata): StructuredLogger {
    return new JsonLogger(this.level, { ...this.base, ...fields }, this.write, this.now);
  }

  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    if ((severity[level] ?? severity.INFO) < severity[this.level]) return;
    this.write(formatRecord(level, message, { ...this.base, ...activeTraceFields(), ...meta }, this.now));
  }

  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }

  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }

  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }

  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }

  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}

/** One JSON line: level, time, msg, then the redacted metadata fields. Exported for tests. */
export function formatRecord(
  level: LogLevel,
  message: string,
  meta: LogMetadata,
  now: () => Date = () => new Date(),
): string {
  const nanos: unknown = meta[logTimestamp];
  const time = typeof nanos === 'bigint' ? new Date(Number(nanos / 1_000_000n)) : now();
  const record: Record<string, unknown> = {
    level: level.toLowerCase(),
    time: time.toISOString(),
    msg: scrubText(message),
  };
  // Object.entries skips symbol keys, so the SDK's timestamp symbol does not reach the line.
  const fields = redact(Object.fromEntries(Object.entries(meta))) as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    record[reserved.has(key) ? `meta.${key}` : key] = value;
  }
  return safeStringify(record);
}

function safeStringify(record: Record<string, unknown>): string {
  try {
    return JSON.stringify(record);
  } catch (error) {
    // redact() already removed cycles and bigints; this is a last guard so logging never throws.
    return JSON.stringify({ level: record.level, time: record.time, msg: record.msg, logError: String(error) });
  }
}
