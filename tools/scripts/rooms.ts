/**
 * The rooms of the repository and the import arrows between them, read from the sources: the
 * picture that opens docs/architecture.md is rendered from this, and a unit test holds the
 * document, the floors and the folder list to what the code imports.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Each room's floor, bottom up: a room may import only rooms on a lower floor. Rooms on one floor
 * never import each other (workflows take activities' signatures as types, one floor down).
 */
export const ROOM_FLOORS = {
  platform: 1,
  provider: 2,
  domain: 3,
  activities: 4,
  client: 4,
  workflows: 5,
  webhooks: 5,
  workers: 6,
  tools: 7,
} as const;

export type Room = keyof typeof ROOM_FLOORS;

/** Top-level folders that hold no product code of a room: the tests, the docs, CI, build output. */
export const NOT_ROOMS = ['test', 'docs', 'node_modules', 'dist', '.ci', '.data', '.artifacts'];

export const REPOSITORY_ROOT = path.join(__dirname, '..', '..');

const SOURCE = /\.(ts|js|mjs|cjs)$/;
// Relative specifiers of import, export-from, require and dynamic import statements.
const SPECIFIER = /(?:\bfrom\s+|\brequire(?:\.resolve)?\(\s*|\bimport\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]*)['"]/gm;

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(full));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(full);
  }
  return found;
}

/**
 * Top-level folders that hold source files, rooms or not (a folder left out of ROOM_FLOORS shows
 * here).
 */
export function codeFolders(root = REPOSITORY_ROOT): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !NOT_ROOMS.includes(entry.name))
    .filter((entry) => sourceFiles(path.join(root, entry.name)).length > 0)
    .map((entry) => entry.name)
    .sort();
}

export interface Arrow {
  from: Room;
  to: Room;
  /** How many import statements make the arrow. */
  imports: number;
}

/**
 * Every arrow between two rooms; imports of a room's own files, of packages and of tests are not
 * arrows.
 */
export function roomArrows(root = REPOSITORY_ROOT): Arrow[] {
  const counts = new Map<string, number>();
  for (const from of Object.keys(ROOM_FLOORS) as Room[]) {
    for (const file of sourceFiles(path.join(root, from))) {
      for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
        const target = path.relative(root, path.resolve(path.dirname(file), match[1]!));
        const to = target.split(path.sep)[0]!;
        if (to !== from && to in ROOM_FLOORS) {
          const key = `${from} ${to}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      }
    }
  }
  return [...counts]
    .map(([key, imports]) => {
      const [from, to] = key.split(' ') as [Room, Room];
      return { from, to, imports };
    })
    .sort(
      (a, b) => ROOM_FLOORS[b.from] - ROOM_FLOORS[a.from] || a.from.localeCompare(b.from) || a.to.localeCompare(b.to),
    );
}

/** Arrows that do not point to a lower floor. */
export function arrowsNotDown(arrows: Arrow[]): Arrow[] {
  return arrows.filter((arrow) => ROOM_FLOORS[arrow.to] >= ROOM_FLOORS[arrow.from]);
}

export const PICTURE_START = '<!-- rooms:start (npm run rooms) -->';
export const PICTURE_END = '<!-- rooms:end -->';

/**
 * A Mermaid flowchart, rooms on their floors, tools at the top: GitHub draws it, and as text it
 * still reads as a list of arrows. Import counts are left out so that an edit inside a room does
 * not change the picture; a new arrow does.
 */
export function renderPicture(arrows: Arrow[]): string {
  const floors = new Map<number, Room[]>();
  for (const [room, floor] of Object.entries(ROOM_FLOORS) as [Room, number][]) {
    floors.set(floor, [...(floors.get(floor) ?? []), room]);
  }
  const lines = ['```mermaid', 'flowchart TB'];
  for (const floor of [...floors.keys()].sort((a, b) => b - a)) {
    lines.push(`  subgraph floor${floor}["floor ${floor}"]`);
    for (const room of floors.get(floor)!) lines.push(`    ${room}["${room}/"]`);
    lines.push('  end');
  }
  for (const arrow of arrows) lines.push(`  ${arrow.from} --> ${arrow.to}`);
  lines.push('```');
  return lines.join('\n');
}

/** The document with the picture between its markers replaced by `picture`. */
export function withPicture(document: string, picture: string): string {
  const start = document.indexOf(PICTURE_START);
  const end = document.indexOf(PICTURE_END);
  if (start < 0 || end < start) throw new Error(`the document has no ${PICTURE_START} ... ${PICTURE_END} block`);
  return `${document.slice(0, start + PICTURE_START.length)}\n${picture}\n${document.slice(end)}`;
}

export const ARCHITECTURE_FILE = path.join(REPOSITORY_ROOT, 'docs', 'architecture.md');

if (require.main === module) {
  const arrows = roomArrows();
  const wrong = arrowsNotDown(arrows);
  if (wrong.length > 0) {
    console.error(`arrows that do not point down: ${wrong.map((a) => `${a.from} -> ${a.to}`).join(', ')}`);
    process.exit(1);
  }
  writeFileSync(ARCHITECTURE_FILE, withPicture(readFileSync(ARCHITECTURE_FILE, 'utf8'), renderPicture(arrows)));
  console.log(ARCHITECTURE_FILE);
}
