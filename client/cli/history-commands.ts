/**
 * `cardflow histories export --out <dir>`: the histories the replay gate replays before a release
 * (docs/versioning.md): open executions of the deployment (or of one version with --build-id) and
 * those closed within --since (default 7d), payloads left encrypted as the server stores them.
 */
import path from 'node:path';
import { exportHistories } from '../history-export';
import { parseSince } from './reconcile-commands';
import { deploymentName } from './deployment-commands';
import { type CliContext, type Command, ExitCodes, printResult, UsageError } from './context';

const DEFAULT_SINCE = '7d';
const DEFAULT_LIMIT = 1000;

async function histories(ctx: CliContext, args: readonly (string | undefined)[]): Promise<number> {
  const [action, extra] = args;
  if (action !== 'export' || extra !== undefined) throw new UsageError('histories: expected export');
  const out = ctx.values.out?.trim();
  if (!out) throw new UsageError('--out: required, the folder the histories are written to');
  const rawLimit = ctx.values.limit ?? String(DEFAULT_LIMIT);
  if (!/^\d{1,6}$/.test(rawLimit) || Number(rawLimit) < 1)
    throw new UsageError('--limit: must be a whole number of at least 1');
  const buildId = ctx.values['build-id']?.trim();
  if (buildId !== undefined && !/^[A-Za-z0-9_-]{1,255}$/.test(buildId))
    throw new UsageError('--build-id: letters, digits, - and _ only');
  const name = deploymentName(ctx);
  const closedSince = parseSince(ctx.values.since ?? DEFAULT_SINCE, Date.now());
  const result = await exportHistories(await ctx.client(), {
    deploymentName: name,
    ...(buildId ? { buildId } : {}),
    closedSince,
    limit: Number(rawLimit),
    outDir: path.resolve(out),
  });
  printResult(ctx, result, () =>
    [
      `${result.files.length} histories of ${buildId ? `${name}:${buildId}` : name} written to ${path.resolve(out)} (${result.open} open, ${result.closed} closed since ${new Date(closedSince).toISOString()}); payloads encrypted`,
      `replay them on the new build: npm run replay-gate -- --histories ${out}`,
    ].join('\n'),
  );
  return ExitCodes.done;
}

export const HISTORIES_COMMAND: Command = {
  name: 'histories',
  usage: ['histories export --out <dir> [--build-id <id>] [--since <time>] [--limit <n>] [--json]'],
  summary: 'export the raw histories of a deployment for the replay gate (payloads stay encrypted)',
  details: [
    'Open executions and those closed within --since (default 7d; an ISO time or a duration), newest first, at most --limit (default 1000).',
    'Files are { workflowId, history }, one per run, as in test/fixtures/histories; `npm run replay-gate -- --histories <dir>` replays them.',
    '--deployment <name>: default CARDFLOW_DEPLOYMENT_NAME, else cardflow.',
  ],
  options: ['out', 'build-id', 'since', 'limit', 'deployment', 'json'],
  run: histories,
};
