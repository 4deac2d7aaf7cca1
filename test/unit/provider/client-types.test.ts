/**
 * Compile-time facts of the client type, checked with the TypeScript compiler: exactly the
 * registry's deprecated operations carry `@deprecated` on ProviderClient, every operation has
 * a method, and the paged operations have iterators.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { operations } from '../../../provider/operations';

const root = join(__dirname, '../../..');

function clientType() {
  const program = ts.createProgram([join(root, 'provider/client.ts')], {
    strict: true,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(join(root, 'provider/client.ts'))!;
  const alias = source.statements.find(
    (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'ProviderClient',
  )!;
  return { checker, type: checker.getTypeAtLocation(alias.name) };
}

describe('ProviderClient type', () => {
  const { checker, type } = clientType();
  const names = Object.keys(operations);

  it('has one method per operation, plus paginate and close', () => {
    const members = type
      .getProperties()
      .map((p) => p.getName())
      .sort();
    expect(members).toEqual([...names, 'close', 'paginate'].sort());
  });

  it('marks exactly the deprecated operations @deprecated', () => {
    const tagged = type
      .getProperties()
      .filter((p) => p.getJsDocTags(checker).some((t) => t.name === 'deprecated'))
      .map((p) => p.getName())
      .sort();
    const deprecated = Object.values(operations)
      .filter((op) => 'deprecated' in op && op.deprecated === true)
      .map((op) => op.name)
      .sort();
    expect(deprecated.length).toBeGreaterThan(0);
    expect(tagged).toEqual(deprecated);
  });

  it('has an iterator for every paged operation', () => {
    const paginate = type.getProperty('paginate')!;
    const iterators = checker
      .getTypeOfSymbol(paginate)
      .getProperties()
      .map((p) => p.getName())
      .sort();
    const paged = Object.values(operations)
      .filter((op) => op.shape === 'page')
      .map((op) => op.name)
      .sort();
    expect(iterators).toEqual(paged);
  });
});
