import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPOSITORY_ROOT, ROOM_FLOORS } from '../../../../tools/scripts/rooms';

/** The comment lines of every production source file, with where they are. */
function commentLines(): Array<{ where: string; text: string }> {
  const files = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      if (entry.name === 'node_modules') return [];
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) return files(full);
      return entry.name.endsWith('.ts') ? [full] : [];
    });
  return Object.keys(ROOM_FLOORS).flatMap((room) =>
    files(path.join(REPOSITORY_ROOT, room)).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((text, index) => ({ where: `${path.relative(REPOSITORY_ROOT, file)}:${index + 1}`, text }))
        .filter(({ text }) => /^\s*(\/\/|\/\*\*?|\*)/.test(text)),
    ),
  );
}

// A repository path in a comment: a room, docs/, test/ or .ci/, then at least one more segment.
const REPOSITORY_PATH =
  /(?<![\w./-])((?:platform|provider|domain|activities|workflows|client|webhooks|workers|tools|docs|test|\.ci)\/[\w./-]*\w)/g;

describe('comments of the production code', () => {
  const lines = commentLines();

  it('are read from every room', () => {
    expect(lines.length).toBeGreaterThan(5000);
  });

  it('name only files and folders that exist', () => {
    const missing = lines.flatMap(({ where, text }) =>
      [...text.matchAll(REPOSITORY_PATH)]
        .map((match) => match[1]!)
        .filter((name) => !/[<*{]/.test(name))
        .filter((name) => ![name, `${name}.ts`, `${name}.js`].some((p) => existsSync(path.join(REPOSITORY_ROOT, p))))
        .map((name) => `${where} ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('cite no style guide outside the repository', () => {
    expect(lines.filter(({ text }) => /\bSTYLE\b/.test(text)).map(({ where }) => where)).toEqual([]);
  });

  it('say why in a few lines: no block of 12 lines or more, the tables below aside', () => {
    // Lists a reader scans rather than reads: the card ledger's totals, the environment
    // interlock's rules, the two signature formats, the envelope's decision order, the provider
    // error tree, the bench's action-counting rules and its variables.
    const TABLES = new Set([
      'domain/card-ledger.ts',
      'platform/config/environment.ts',
      'platform/notifications/signature.ts',
      'provider/envelope.ts',
      'provider/errors.ts',
      'tools/bench/actions.ts',
      'tools/bench/main.ts',
    ]);
    const blocks: Array<{ file: string; first: number; length: number }> = [];
    for (const { where } of lines) {
      const [file, at] = where.split(':') as [string, string];
      const line = Number(at);
      const last = blocks[blocks.length - 1];
      if (last && last.file === file && last.first + last.length === line) last.length += 1;
      else blocks.push({ file, first: line, length: 1 });
    }
    const long = blocks.filter((b) => b.length >= 12 && !TABLES.has(b.file)).map((b) => `${b.file}:${b.first}`);
    expect(long).toEqual([]);
  });
});
