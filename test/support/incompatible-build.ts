/**
 * A second build of cardflow whose workflow code does NOT replay the first one's onboarding
 * histories: `customerOnboarding` (or another workflow chosen) starts with a timer the released
 * code never scheduled, so a run started on the released build fails with a nondeterminism error
 * the moment it meets this code. Versioning tests run it beside the released build to show that
 * pinned onboardings never do. The entry file is written to a temp folder (the repository is never
 * touched) and re-exports every released workflow, only wrapping the onboarding.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleCardflowWorkflows } from '../../workers/create-worker';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Bundles the variant; returns its code and the file it was written to (for
 * CARDFLOW_WORKFLOW_BUNDLE). `changed`: the workflow given the extra timer (default the
 * onboarding).
 */
export async function writeIncompatibleBuild(
  changed: 'customerOnboarding' | 'cardEntity' = 'customerOnboarding',
): Promise<{ code: string; file: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cardflow-build-b-'));
  const released = path.join(ROOT, 'workflows');
  const entry = path.join(dir, 'index.ts');
  await writeFile(
    entry,
    [
      `import { sleep } from '@temporalio/workflow';`,
      `import { ${changed} as released } from ${JSON.stringify(released)};`,
      `export * from ${JSON.stringify(released)};`,
      `/** Build B: one more timer before anything the released workflow does. */`,
      `export async function ${changed}(...args: Parameters<typeof released>): ReturnType<typeof released> {`,
      `  await sleep(5);`,
      `  return released(...args);`,
      `}`,
      '',
    ].join('\n'),
  );
  const { code } = await bundleCardflowWorkflows({
    workflowsPath: entry,
    withFailureConverter: true,
    // The entry lives outside the repository: its imports resolve from the repository's packages.
    webpackConfigHook: (config) => ({
      ...config,
      resolve: { ...config.resolve, modules: [path.join(ROOT, 'node_modules'), 'node_modules'] },
    }),
  });
  const file = path.join(dir, 'workflow-bundle.js');
  await writeFile(file, code);
  return { code, file };
}
