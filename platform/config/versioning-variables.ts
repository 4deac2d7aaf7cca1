/**
 * The rules of the worker versioning variables (docs/versioning.md), here rather than in
 * workers/ because the configuration schema checks them in every process, the CLI included,
 * and the installable client never reaches workers/.
 */
import { deploymentNameIssue } from './values/deployment-name';

/** What the environment says about a worker's place in its deployment. */
export type BootstrapMode = 'first' | 'always' | 'off';

/** `CARDFLOW_WORKER_VERSIONING`'s value; throws an Error naming the rule. */
export function parseOnOff(raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (value !== 'on' && value !== 'off') throw new Error('must be on or off');
  return value === 'on';
}

/** `CARDFLOW_DEPLOYMENT_BOOTSTRAP`'s value; throws an Error naming the rule. */
export function parseBootstrap(raw: string): BootstrapMode {
  const value = raw.trim().toLowerCase();
  if (value === 'on') return 'first';
  if (value === 'always' || value === 'off') return value;
  throw new Error('must be on, always or off');
}

/** `CARDFLOW_DEPLOYMENT_NAME`'s value; throws an Error naming the rule. */
export function parseDeploymentName(raw: string): string {
  const name = raw.trim();
  const issue = deploymentNameIssue(name);
  if (issue) throw new Error(issue);
  return name;
}
