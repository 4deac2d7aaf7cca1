import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {
  ARCHITECTURE_FILE,
  PICTURE_END,
  PICTURE_START,
  REPOSITORY_ROOT,
  ROOM_FLOORS,
  arrowsNotDown,
  codeFolders,
  renderPicture,
  roomArrows,
  withPicture,
} from '../../../../tools/scripts/rooms';

const rooms = Object.keys(ROOM_FLOORS).sort();

function tsFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function configFiles(configName: string): Set<string> {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(REPOSITORY_ROOT, configName),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  return new Set(parsed!.fileNames.map((file) => path.resolve(file)));
}

describe('the rooms and their arrows', () => {
  it('puts every top-level folder that holds code in a room', () => {
    expect(codeFolders()).toEqual(rooms);
  });

  it('has every arrow point down a floor', () => {
    const arrows = roomArrows();
    expect(arrows.length).toBeGreaterThan(20);
    expect(arrowsNotDown(arrows)).toEqual([]);
  });

  it('finds an arrow made by require.resolve as well as by import', () => {
    expect(roomArrows()).toContainEqual(expect.objectContaining({ from: 'workers', to: 'workflows' }));
  });

  it('draws docs/architecture.md from the code (npm run rooms redraws it)', () => {
    const document = readFileSync(ARCHITECTURE_FILE, 'utf8');
    expect(document).toContain(PICTURE_START);
    expect(document).toContain(PICTURE_END);
    expect(withPicture(document, renderPicture(roomArrows()))).toBe(document);
  });

  it('names in docs/architecture.md only files and folders that exist', () => {
    const document = readFileSync(ARCHITECTURE_FILE, 'utf8');
    const roomPath = new RegExp(`\`((?:${rooms.join('|')}|test|docs)/[\\w./-]*)\``, 'g');
    const named = [...document.matchAll(roomPath)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(30);
    const missing = named.filter((name) => !name.includes('<') && !existsSync(path.join(REPOSITORY_ROOT, name)));
    expect(missing).toEqual([]);
  });
});

describe('the TypeScript configurations cover every room by glob', () => {
  const sources = [...rooms, 'test'].flatMap((room) => tsFiles(path.join(REPOSITORY_ROOT, room)));

  it('typechecks every source and test file', () => {
    const included = configFiles('tsconfig.json');
    expect(sources.length).toBeGreaterThan(500);
    expect(sources.filter((file) => !included.has(file))).toEqual([]);
  });

  it('builds every production file, and no test or bench', () => {
    const built = configFiles('tsconfig.build.json');
    const production = (file: string) => {
      const relative = path.relative(REPOSITORY_ROOT, file);
      return !relative.startsWith(`test${path.sep}`) && !relative.startsWith(path.join('tools', 'bench'));
    };
    expect(sources.filter((file) => production(file) !== built.has(file))).toEqual([]);
  });
});
