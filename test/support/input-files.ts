import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A temporary directory for input files, removed after the file's tests; `file` writes JSON (or
 * text) into it, `pathOf` names a file without writing it.
 */
export function inputFiles(prefix: string): {
  file: (name: string, content: unknown) => string;
  pathOf: (name: string) => string;
} {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    pathOf: (name) => path.join(dir, name),
    file(name, content) {
      const p = path.join(dir, name);
      writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
      return p;
    },
  };
}
