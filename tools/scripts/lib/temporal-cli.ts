/**
 * Node-side access to the Temporal CLI: where the binary is (through
 * `tools/scripts/temporal-cli.sh`, the one place that knows the version, the cache and how to build
 * it) and how the project's search attributes are spelled on its command line.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SearchAttributeType } from '@temporalio/common';
import type { SearchAttributeKey } from '@temporalio/common/lib/search-attributes';

const execFileAsync = promisify(execFile);

/** The repository root (this file lives in `tools/scripts/lib/`). */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');

/**
 * Absolute path of the Temporal CLI. May build it (minutes, once per machine); build progress is
 * passed through to this process's stderr so a long wait is visible.
 */
export async function resolveTemporalCli(): Promise<string> {
  const script = path.join(repoRoot, 'tools', 'scripts', 'temporal-cli.sh');
  const child = execFileAsync('bash', [script], { maxBuffer: 1024 * 1024 });
  child.child.stderr?.pipe(process.stderr);
  const { stdout } = await child;
  const cliPath = stdout.trim();
  if (!path.isAbsolute(cliPath))
    throw new Error(`tools/scripts/temporal-cli.sh printed "${cliPath}", not an absolute path`);
  return cliPath;
}

/** `temporal server start-dev --search-attribute` type names (Keyword, KeywordList, ...). */
const cliTypeName: Record<SearchAttributeType, string> = {
  TEXT: 'Text',
  KEYWORD: 'Keyword',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/** `--search-attribute Name=Type` arguments registering each key at dev-server start. */
export function searchAttributeArgs(keys: readonly SearchAttributeKey<SearchAttributeType>[]): string[] {
  return keys.flatMap((key) => ['--search-attribute', `${key.name}=${cliTypeName[key.type]}`]);
}
