/**
 * Input hygiene for every text field cardflow sends or starts a workflow with: every request
 * schema of the 46 operations (client and sandbox) and the workflow input schemas (client, CLI,
 * workflow validation) refuse, at the field's own path, a value with a control, format (zero-width,
 * bidi override) or other invisible character, and a value longer than the field's limit. The
 * fields are found by walking the schemas, so a field added later is covered without being named.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { operations } from '../../../../provider/operations';
import { FORBIDDEN_TEXT_RULE, TOKEN_TEXT_MAX, WORK_ORDER_FILES_MAX } from '../../../../provider/rules';
import { parseTransferRequest } from '../../../../client';
import { InvalidInputError } from '../../../../client/validation';
import { cardOperationInputIssues } from '../../../../domain/card-operations';
import { activationInputIssues } from '../../../../domain/physical-card-activation';
import { CardholderDataSchema } from '../../../../domain/cardholder-data';
import { OnboardingInputSchema } from '../../../../domain/customer-onboarding';
import { OnboardingActivationRequestSchema } from '../../../../domain/onboarding-physical';

type Path = (string | number)[];
interface Leaf {
  path: Path;
  /** Builds an input with `value` at the leaf, discriminators (literals) filled in on the way. */
  build: (value: unknown) => unknown;
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  values?: unknown[];
  left?: z.ZodType;
  right?: z.ZodType;
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The leaves of a schema: every place a string could be given. */
function leavesOf(schema: z.ZodType, path: Path = [], build: (v: unknown) => unknown = (v) => v): Leaf[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return leavesOf(def.innerType!, path, build);
    case 'pipe':
      return defOf(def.in!).type === 'transform' ? leavesOf(def.out!, path, build) : leavesOf(def.in!, path, build);
    case 'intersection':
      return [...leavesOf(def.left!, path, build), ...leavesOf(def.right!, path, build)];
    case 'union': {
      const objects = def.options!.filter((o) => objectShape(o) !== undefined);
      // A union of objects (discriminated or not): each option's fields; a union of primitives is
      // one leaf.
      if (objects.length === 0) return [{ path, build }];
      return objects.flatMap((o) => leavesOf(o, path, build));
    }
    case 'object': {
      const shape = def.shape!;
      const literals = Object.fromEntries(
        Object.entries(shape)
          .filter(([, s]) => defOf(s).type === 'literal')
          .map(([k, s]) => [k, defOf(s).values![0]]),
      );
      return Object.entries(shape)
        .filter(([, s]) => defOf(s).type !== 'literal')
        .flatMap(([key, s]) => leavesOf(s, [...path, key], (v) => build({ ...literals, [key]: v })));
    }
    case 'array':
      return leavesOf(def.element!, [...path, 0], (v) => build([v]));
    default:
      return [{ path, build }];
  }
}

function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const def = defOf(schema);
  if (def.type === 'object') return def.shape;
  if (['optional', 'nullable', 'default', 'readonly'].includes(def.type)) return objectShape(def.innerType!);
  if (def.type === 'pipe') return objectShape(def.in!);
  return undefined;
}

const SCHEMAS: [string, z.ZodType][] = [
  ...Object.values(operations).map((op): [string, z.ZodType] => [`${op.name} request`, op.request]),
  ['onboarding input', OnboardingInputSchema],
  ['cardholder data (correction)', CardholderDataSchema],
  ['activation request', OnboardingActivationRequestSchema],
];

const CASES = SCHEMAS.flatMap(([name, schema]) =>
  leavesOf(schema).map((leaf): [string, Leaf, z.ZodType] => [`${name}: ${leaf.path.join('.')}`, leaf, schema]),
);

/** Whether parsing refuses the input with an issue at `path` (or below it). */
function refusedAt(schema: z.ZodType, leaf: Leaf, value: unknown): boolean {
  const result = schema.safeParse(leaf.build(value));
  if (result.success) return false;
  const want = leaf.path.map(String).join('.');
  return result.error.issues.some((i) => {
    const got = i.path.map(String).join('.');
    return got === want || got.startsWith(`${want}.`);
  });
}

/**
 * Characters no field accepts: controls, format characters (zero-width, bidi controls, BOM),
 * separators.
 */
const FORBIDDEN = [
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u200b',
  '\u200d',
  '\u200e',
  '\u202e',
  '\u2066',
  '\u2028',
  '\ufeff',
  '\ud800',
  '\ue000',
];

// A value each field could otherwise take: digits pass most rules, an e-mail shape the rest.
const carriers = ['12345678901234567890123', 'ab12@example.com', 'PASSPORT'];

it('walks every field of every schema', () => {
  expect(CASES.length).toBeGreaterThan(150);
  expect(CASES.map(([name]) => name)).toEqual(
    expect.arrayContaining([
      'createCardholder request: email',
      'createCardholder request: mobile',
      'createCardholder request: idNumber',
      'onboarding input: holder.email',
      'submitWorkOrder request: content',
      'transferFunds request: remark',
    ]),
  );
});

describe.each(CASES)('%s', (_name, leaf, schema) => {
  it('refuses control, format and bidi characters at its own path', () => {
    for (const bad of FORBIDDEN)
      for (const carrier of carriers) {
        const value = `${carrier.slice(0, 3)}${bad}${carrier.slice(3)}`;
        if (!refusedAt(schema, leaf, value))
          throw new Error(`accepted U+${bad.codePointAt(0)!.toString(16)} in "${carrier}"`);
      }
  });

  it('refuses an oversized value at its own path', () => {
    expect(refusedAt(schema, leaf, '1'.repeat(3_000_000))).toBe(true);
    expect(refusedAt(schema, leaf, 'a@b.co'.padStart(5000, '1'))).toBe(true);
  });
});

describe('fast-check: text the schemas accept is clean', () => {
  const FORBIDDEN_RE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/u;
  const textLeaves = CASES.filter(([name]) =>
    /email|mobile|idNumber|remark|content|title|target|accountName|annualSalary|town/.test(name),
  );

  it('never accepts a string with a forbidden character, whatever surrounds it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...textLeaves),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.constantFrom(...FORBIDDEN),
        fc.string({ maxLength: 20 }),
        ([name, leaf, schema], before, bad, after) => {
          if (!refusedAt(schema, leaf, before + bad + after))
            throw new Error(
              `${name} accepted ${JSON.stringify(before + bad + after)}: ${JSON.stringify(schema.safeParse(leaf.build(before + bad + after)).error?.issues)}`,
            );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('whatever arbitrary Unicode a field accepts contains no forbidden character and is NFC', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...textLeaves),
        fc.string({ unit: 'binary', maxLength: 40 }),
        ([name, leaf, schema], text) => {
          if (refusedAt(schema, leaf, text)) return;
          // A work order's content is multi-line: tab and line breaks are its only controls.
          expect(FORBIDDEN_RE.test(name.endsWith('content') ? text.replace(/[\t\n\r]/g, '') : text)).toBe(false);
          expect(text.normalize('NFC')).toBe(text);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('the hand-written input rules apply the same character policy', () => {
  it.each(['lost\u202ewallet', 'a\u0007b', 'zero\u200bwidth'])('clientRemark %j of a card operation', (remark) => {
    expect(cardOperationInputIssues('freeze', { cardNo: 'C1', clientRemark: remark })).toEqual([
      { path: 'clientRemark', message: FORBIDDEN_TEXT_RULE },
    ]);
  });

  it('title and content of an activation work order', () => {
    const issues = activationInputIssues({
      cardNo: 'C1',
      route: 'work_order',
      workOrder: { title: 'Card\u202e', content: 'line one\nline two\u0000', files: [{ fileId: 'F1' }] },
    });
    expect(issues).toEqual([
      { path: 'workOrder.title', message: FORBIDDEN_TEXT_RULE },
      { path: 'workOrder.content', message: FORBIDDEN_TEXT_RULE },
    ]);
    expect(
      activationInputIssues({
        cardNo: 'C1',
        route: 'work_order',
        workOrder: { title: 'Card', content: 'line one\nline two', files: [{ fileId: 'F1' }] },
      }),
    ).toEqual([]);
  });

  it.each(['lost\u202ewallet', 'a\u0007b', 'zero\u200bwidth'])('remark %j of a transfer request', (remark) => {
    const request = { transferRef: 't1', type: 'TRANSFER', amount: '1', payerAccountId: '1', payeeAccountId: '2' };
    expect(() => parseTransferRequest({ ...request, remark })).toThrow(InvalidInputError);
    expect(() => parseTransferRequest({ ...request, remark })).toThrow(`remark: ${FORBIDDEN_TEXT_RULE}`);
    expect(parseTransferRequest({ ...request, remark: 'rent for May' }).remark).toBe('rent for May');
  });

  it('sealedPin of a PIN change', () => {
    const pinChange = (sealedPin: string) => cardOperationInputIssues('updatePin', { cardNo: 'C1', sealedPin });
    expect(pinChange('c2VhbGVk\u0007')).toEqual([{ path: 'sealedPin', message: FORBIDDEN_TEXT_RULE }]);
    expect(pinChange('A'.repeat(TOKEN_TEXT_MAX + 1))).toEqual([
      { path: 'sealedPin', message: `length must be 1 to ${TOKEN_TEXT_MAX} characters` },
    ]);
    expect(pinChange('c2VhbGVkIFBJTg==')).toEqual([]);
  });

  it('sealedPin, file ids, content types and the number of files of an activation', () => {
    const files = (list: { fileId: string }[] | { ref: string; contentType: string }[]) =>
      activationInputIssues({ cardNo: 'C1', route: 'work_order', workOrder: { files: list } });
    expect(files([{ fileId: 'F\u200b1' }])).toEqual([
      { path: 'workOrder.files.0.fileId', message: FORBIDDEN_TEXT_RULE },
    ]);
    expect(files([{ fileId: 'F'.repeat(3_000_000) }])).toEqual([
      { path: 'workOrder.files.0.fileId', message: 'length must be 1 to 255 characters' },
    ]);
    expect(files([{ ref: 'id.png', contentType: 'image/png\u202e' }])).toEqual([
      { path: 'workOrder.files.0.contentType', message: FORBIDDEN_TEXT_RULE },
    ]);
    expect(files(Array.from({ length: WORK_ORDER_FILES_MAX + 1 }, () => ({ fileId: 'F1' })))).toEqual([
      { path: 'workOrder.files', message: `must list at most ${WORK_ORDER_FILES_MAX} files` },
    ]);
    expect(files([{ fileId: 'F1' }, { ref: 'id.png', contentType: 'image/png' }] as never)).toEqual([]);
    const code = (sealedPin: string) => activationInputIssues({ cardNo: 'C1', route: 'activation_code', sealedPin });
    expect(code('c2VhbGVk\u001b')).toEqual([{ path: 'sealedPin', message: FORBIDDEN_TEXT_RULE }]);
    expect(code('A'.repeat(TOKEN_TEXT_MAX + 1))).toEqual([
      { path: 'sealedPin', message: `length must be 1 to ${TOKEN_TEXT_MAX} characters` },
    ]);
  });
});
