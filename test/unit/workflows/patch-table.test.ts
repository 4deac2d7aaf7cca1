import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');

function workflowSources(folder = path.join(ROOT, 'workflows')): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return workflowSources(full);
    return entry.name.endsWith('.ts') ? [readFileSync(full, 'utf8')] : [];
  });
}

/** Every name the workflow code asks `patched()` about: a literal, or a constant holding one. */
function patchNamesInCode(): string[] {
  const sources = workflowSources();
  const constants = new Map<string, string>();
  for (const source of sources)
    for (const match of source.matchAll(/\bconst ([A-Z][A-Z0-9_]*) = '([^']+)'/g)) constants.set(match[1]!, match[2]!);
  const names = new Set<string>();
  for (const source of sources) {
    for (const match of source.matchAll(/\bpatched\(\s*(?:'([^']+)'|([A-Z][A-Z0-9_]*))\s*\)/g)) {
      const name = match[1] ?? constants.get(match[2]!);
      if (name === undefined) throw new Error(`patched(${match[2]}) names no string constant of workflows/`);
      names.add(name);
    }
  }
  return [...names].sort();
}

/** The first column of docs/versioning.md's patch table. */
function patchNamesInTable(): string[] {
  const document = readFileSync(path.join(ROOT, 'docs', 'versioning.md'), 'utf8');
  const section = document.split('\n## ').find((part) => part.startsWith('Patches'));
  if (!section) throw new Error('docs/versioning.md has no "## Patches" section');
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!).sort();
}

describe("docs/versioning.md's patch table", () => {
  it('has a row for every patch the workflows ask about, and none besides', () => {
    const inCode = patchNamesInCode();
    expect(inCode.length).toBeGreaterThanOrEqual(12);
    expect(patchNamesInTable()).toEqual(inCode);
  });
});
