/**
 * The repository's own TypeScript, found by walking the tree (not from a list kept by hand), for
 * the tests that hold a rule over every production file.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

/** Folders that hold no source of the repository's own: installs, builds, runtime data. */
const NOT_SOURCE = new Set(['node_modules', 'dist', 'coverage', '.git', '.data', '.artifacts']);

/** Every `.ts` file under `folder` (repository-relative, `/`-separated), tests included. */
export function typeScriptFiles(folder = '.'): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
      if (NOT_SOURCE.has(entry.name)) continue;
      const path = dir === '.' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(path);
    }
  };
  walk(relative(REPO_ROOT, join(REPO_ROOT, folder)) || '.');
  return found.sort();
}

/** The production TypeScript: everything but the test tree. */
export function productionFiles(): string[] {
  return typeScriptFiles().filter((path) => !path.startsWith('test/'));
}
