/**
 * The rule of a Worker Deployment's name, shared by `CARDFLOW_DEPLOYMENT_NAME` and the CLI's
 * deployment commands.
 */

/**
 * Temporal's rules for a deployment name (`:` and `.` separate it from the build id in version
 * strings).
 */
export function deploymentNameIssue(name: string): string | undefined {
  if (!name) return 'must not be empty';
  if (name.length > 100) return 'must be at most 100 characters';
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return 'may hold only letters, digits, - and _';
  return undefined;
}
