/**
 * `cardflow deployment <list|set-current|ramp|rollback|retire>`: the rollout of a new build as an
 * operator runs it (docs/versioning.md). The deployment is --deployment, else
 * CARDFLOW_DEPLOYMENT_NAME, else `cardflow`, as the workers read it.
 */
import { deploymentNameIssue } from '../../platform/config/values/deployment-name';
import { configured } from '../../platform/config/schema';
import {
  DeploymentError,
  describeDeployment,
  describeView,
  rampVersion,
  retireVersion,
  rollback,
  setCurrentVersion,
} from '../../platform/temporal/deployments';
import { type CliContext, type Command, ExitCodes, UsageError } from './context';

export function deploymentName(ctx: CliContext): string {
  const given = ctx.values.deployment?.trim();
  if (given !== undefined) {
    const issue = deploymentNameIssue(given);
    if (issue) throw new UsageError(`--deployment: ${issue}`);
    return given;
  }
  return configured(ctx.config, 'CARDFLOW_DEPLOYMENT_NAME');
}

function buildId(ctx: CliContext, required: true): string;
function buildId(ctx: CliContext, required: false): string | undefined;
function buildId(ctx: CliContext, required: boolean): string | undefined {
  const id = ctx.values['build-id']?.trim();
  if (id !== undefined && !/^[A-Za-z0-9_-]{1,255}$/.test(id))
    throw new UsageError('--build-id: letters, digits, - and _ only (as `cardflow deployment list` prints it)');
  if (required && !id) throw new UsageError('--build-id: required');
  return id || undefined;
}

function percent(ctx: CliContext): number {
  const raw = ctx.values.percent;
  if (raw === undefined || !/^\d{1,3}(\.\d+)?$/.test(raw) || Number(raw) > 100)
    throw new UsageError('--percent: required, a number from 0 to 100');
  return Number(raw);
}

/** Runs a routing change; a refusal (unknown build, not drained...) is exit 1 with its reason. */
async function refusable(ctx: CliContext, run: () => Promise<string>): Promise<number> {
  try {
    ctx.io.out(await run());
    return ExitCodes.done;
  } catch (error) {
    if (!(error instanceof DeploymentError)) throw error;
    ctx.io.err(`cardflow: ${error.message}`);
    return ExitCodes.failed;
  }
}

async function deployment(ctx: CliContext, args: readonly (string | undefined)[]): Promise<number> {
  const [action, extra] = args;
  if (extra !== undefined) throw new UsageError(`deployment ${action ?? ''} takes no further argument (${extra})`);
  const name = deploymentName(ctx);
  switch (action) {
    case 'list':
      return refusable(ctx, async () => {
        const view = await describeDeployment(await ctx.client(), name);
        return ctx.values.json ? JSON.stringify(view, null, 2) : describeView(view);
      });
    case 'set-current': {
      const id = buildId(ctx, true);
      return refusable(ctx, async () => {
        await setCurrentVersion(await ctx.client(), name, id);
        return `${name}: build ${id} is current; new workflows (and cardEntity runs) go to it, pinned ones stay on their builds`;
      });
    }
    case 'ramp': {
      const id = buildId(ctx, false);
      const share = percent(ctx);
      return refusable(ctx, async () => {
        await rampVersion(await ctx.client(), name, id, share);
        return id ? `${name}: build ${id} takes ${share}% of new workflows` : `${name}: ramp stopped`;
      });
    }
    case 'rollback': {
      const to = buildId(ctx, false);
      return refusable(ctx, async () => {
        const result = await rollback(await ctx.client(), name, to);
        return result.action === 'ramp-stopped'
          ? `${name}: ramp of ${result.buildId} stopped; new workflows go to the current version`
          : `${name}: build ${result.buildId} is current again for new workflows`;
      });
    }
    case 'retire': {
      const id = buildId(ctx, true);
      return refusable(ctx, async () => {
        await retireVersion(await ctx.client(), name, id);
        return `${name}: build ${id} retired`;
      });
    }
    default:
      throw new UsageError(
        `deployment: expected list, set-current, ramp, rollback or retire, not ${action ?? 'nothing'}`,
      );
  }
}

export const DEPLOYMENT_COMMAND: Command = {
  name: 'deployment',
  usage: [
    'deployment list [--json]',
    'deployment set-current --build-id <id>',
    'deployment ramp --build-id <id> --percent <0-100>   (ramp --percent 0: stop the ramp)',
    'deployment rollback [--build-id <id>]',
    'deployment retire --build-id <id>',
  ],
  summary: "roll out a build: the deployment's versions, open workflows and drainage; current, ramp, rollback, retire",
  details: [
    'Every worker polls as <deployment>:<build id>, the build id a hash of its workflow bundle (docs/versioning.md).',
    'list: each version with its routing (current, ramping N%), drainage (draining: pinned workflows still open; drained: none), open workflows and the pinned ones among them.',
    'rollback: stops a ramp; without one, makes the previously current version (or --build-id) current again. Pinned workflows never move.',
    'retire: deletes a drained version whose workers have stopped; refused while a workflow pinned to it is open.',
    '--deployment <name>: default CARDFLOW_DEPLOYMENT_NAME, else cardflow.',
  ],
  options: ['deployment', 'build-id', 'percent', 'json'],
  run: deployment,
};
