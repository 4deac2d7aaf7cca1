/**
 * One failure vocabulary: every error an activity throws crosses the boundary with a type of the
 * registry (domain/failure-types.ts), and no class borrows a registered name for something else.
 * Read from the code itself, so a new activity or a new error class is held to it too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CancelledFailure, type ApplicationFailure } from '@temporalio/common';
import ts from 'typescript';
import { toActivityFailure } from '../../../activities/failures';
import { activityFactories } from '../../../activities';
import { ClientErrorTypes, FailureTypes } from '../../../domain/failure-types';
import { ProviderErrorTypes } from '../../../provider/error-types';
import { ProviderBusinessError, ProviderTransportError } from '../../../provider/errors';
import { productionFiles, REPO_ROOT, typeScriptFiles } from '../../support/source-files';

const REGISTERED: readonly string[] = [
  ...Object.values(FailureTypes),
  ...Object.values(ClientErrorTypes),
  ...Object.values(ProviderErrorTypes),
];

/** The calls of domain/failures.ts that make a failure of a registered type. */
const FAILURE_MAKERS = ['nonRetryable', 'retryable', 'stillWaiting', 'rethrown'];

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(join(REPO_ROOT, path), 'utf8'), ts.ScriptTarget.ES2022, true);
}

function nodesOf(file: ts.SourceFile, keep: (node: ts.Node) => boolean): ts.Node[] {
  const found: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (keep(node)) found.push(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * True when `name` is the variable of a catch clause around `node`: an error caught and re-thrown.
 */
function isCaughtError(node: ts.Node, name: string): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isCatchClause(at) && at.variableDeclaration?.name.getText() === name) return true;
  }
  return false;
}

/** Why the thrown expression is not a registered failure, or undefined when it is. */
function unregistered(thrown: ts.Expression): string | undefined {
  if (ts.isIdentifier(thrown))
    return isCaughtError(thrown, thrown.text) ? undefined : `${thrown.text} is not a caught error`;
  if (!ts.isCallExpression(thrown)) return 'not a failure made by domain/failures.ts';
  const callee = thrown.expression.getText();
  // The conversion at the boundary itself (activities/failures.ts).
  if (callee === 'withReportedBackoff' && thrown.arguments[0]?.getText().startsWith('toActivityFailure('))
    return undefined;
  if (!FAILURE_MAKERS.includes(callee)) return `${callee}() is not one of ${FAILURE_MAKERS.join(', ')}`;
  if (callee === 'stillWaiting' || callee === 'rethrown') return undefined;
  const type = thrown.arguments[0]?.getText() ?? '';
  const member = /^FailureTypes\.(\w+)$/.exec(type)?.[1];
  return member && member in FailureTypes ? undefined : `type ${type} is not a FailureTypes member`;
}

const activityFiles = typeScriptFiles('activities');

test('the activities are found', () => {
  expect(activityFiles).toContain('activities/cardholders.ts');
  expect(activityFiles).toContain('activities/reconciliation/orders.ts');
});

test.each(activityFiles)('every error %s throws is a failure of a registered type', (path) => {
  const file = parse(path);
  const problems = nodesOf(file, ts.isThrowStatement).flatMap((node) => {
    const thrown = (node as ts.ThrowStatement).expression;
    const why = unregistered(thrown);
    const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    return why ? [`${path}:${line}: throw ${thrown.getText()}: ${why}`] : [];
  });
  expect(problems).toEqual([]);
});

test('every activity factory converts what it throws at the boundary', () => {
  const factories = activityFiles.flatMap((path) =>
    (nodesOf(parse(path), ts.isFunctionDeclaration) as ts.FunctionDeclaration[])
      .filter((node) => /^create\w+Activities$/.test(node.name?.text ?? '') && node.name?.text !== 'createActivities')
      .map((node) => {
        const returns = node.body?.statements.filter(ts.isReturnStatement) ?? [];
        const converted =
          returns.length > 0 && returns.every((r) => r.expression?.getText().startsWith('convertingFailures('));
        return { factory: `${path}: ${node.name?.text}`, converted };
      }),
  );
  // Every factory createActivities finds (activities/index.ts `activityFactories`).
  expect(factories).toHaveLength(activityFactories().size);
  expect(factories.filter((f) => !f.converted)).toEqual([]);
});

describe('an error an activity did not expect', () => {
  test.each([
    ['an Error', new Error('disk full')],
    ['a TypeError', new TypeError('x is undefined')],
    ['a thrown string', 'odd'],
  ])('%s crosses the boundary as a retryable Unexpected', (_what, error) => {
    const failure = toActivityFailure(error) as ApplicationFailure;
    expect(failure).toMatchObject({ type: FailureTypes.unexpected, nonRetryable: false });
    expect(failure.message).toContain(error instanceof Error ? error.message : error);
  });

  test('a provider error keeps its own registered type and retryability', () => {
    const transport = new ProviderTransportError('connection reset', { code: 'ECONNRESET' });
    const business = new ProviderBusinessError({ code: 40001, msg: 'refused', httpStatus: 200 });
    for (const [error, nonRetryable] of [
      [transport, false],
      [business, true],
    ] as const) {
      const failure = toActivityFailure(error) as ApplicationFailure;
      expect(REGISTERED).toContain(failure.type);
      expect(failure.nonRetryable).toBe(nonRetryable);
    }
  });

  test('a cancellation stays as it is, for the SDK to report the activity cancelled', () => {
    const cancelled = new CancelledFailure('CANCELLED');
    const aborted = Object.assign(new Error('aborted'), { name: 'AbortError' });
    expect(toActivityFailure(cancelled)).toBe(cancelled);
    expect(toActivityFailure(aborted)).toBe(aborted);
  });
});

const REGISTRIES = { FailureTypes, ClientErrorTypes } as Record<string, Record<string, string>>;

/**
 * The registered value a class's `type` member names (`FailureTypes.x`, `ClientErrorTypes.x`), if
 * any.
 */
function registeredTypeOf(node: ts.ClassDeclaration): string | undefined {
  const member = node.members.find((m) => ts.isPropertyDeclaration(m) && m.name.getText() === 'type');
  const value = member && ts.isPropertyDeclaration(member) ? member.initializer?.getText() : undefined;
  const [, group, name] = /^(FailureTypes|ClientErrorTypes)\.(\w+)$/.exec(value ?? '') ?? [];
  return group && name ? REGISTRIES[group]?.[name] : undefined;
}

function classesOf(path: string): ts.ClassDeclaration[] {
  return nodesOf(parse(path), ts.isClassDeclaration) as ts.ClassDeclaration[];
}

test('no production class is named after a registered type it does not carry', () => {
  // The provider client's error classes are the registry's own provider types (provider/errors.ts).
  const problems = productionFiles()
    .filter((path) => path !== 'provider/errors.ts')
    .flatMap((path) =>
      classesOf(path)
        .filter((node) => REGISTERED.includes(node.name?.text ?? '') && registeredTypeOf(node) !== node.name?.text)
        .map((node) => `${path}: class ${node.name?.text}`),
    );
  expect(problems).toEqual([]);
});

test("the client package's errors carry a registered type", () => {
  const files = typeScriptFiles('client').filter((path) => !path.startsWith('client/cli/'));
  const errors = files.flatMap((path) =>
    classesOf(path)
      .filter((node) => node.heritageClauses?.some((h) => h.getText() === 'extends Error'))
      .map((node) => ({ name: `${path}: ${node.name?.text}`, type: registeredTypeOf(node) })),
  );
  expect(errors.length).toBeGreaterThan(0);
  expect(errors.filter((error) => error.type === undefined)).toEqual([]);
});
