/**
 * A field the request's schema does not name is refused by path before anything starts, at any
 * depth, instead of being dropped: a misspelt optional field must not quietly change what happens.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { unknownFields } from '../../../client/unknown-fields';
import { InvalidInputError, parseCardholderCorrection, parseOnboardingInput } from '../../../client/validation';
import { parseInput } from '../../../client/inputs';

const customer = (): Record<string, unknown> =>
  JSON.parse(readFileSync(path.resolve(__dirname, '../../../client/examples/customer.json'), 'utf8')) as Record<
    string,
    unknown
  >;

function refusal(attempt: () => unknown): string {
  try {
    attempt();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

it('the example onboarding input has no unknown field and parses', () => {
  expect(parseOnboardingInput(customer()).customerRef).toBe('acme-demo-0001');
});

it('a misspelt top-level field of an onboarding is refused by name, with the rest valid', () => {
  const { initialDeposit, ...rest } = customer();
  const message = refusal(() => parseOnboardingInput({ ...rest, initialDepost: initialDeposit }));
  expect(message).toContain('onboarding input is invalid');
  expect(message).toContain('initialDepost: is not a field of the onboarding input');
});

it('an unknown field inside the holder is refused with its path, in the onboarding and a correction', () => {
  const input = customer();
  const holder = { ...(input.holder as Record<string, unknown>), middleName: 'Q' };
  expect(refusal(() => parseOnboardingInput({ ...input, holder }))).toContain(
    'holder.middleName: is not a field of the onboarding input',
  );
  expect(refusal(() => parseCardholderCorrection({ holder }))).toContain(
    'holder.middleName: is not a field of the cardholder data',
  );
});

it('parseInput refuses unknown fields of any request schema', () => {
  const schema = z.object({ amount: z.string(), note: z.string().optional() });
  expect(parseInput(schema, 'deposit request', { amount: '1.00' })).toEqual({ amount: '1.00' });
  expect(refusal(() => parseInput(schema, 'deposit request', { amount: '1.00', notes: 'x' }))).toContain(
    'notes: is not a field of deposit request',
  );
});

describe('unknownFields', () => {
  const item = z.object({ id: z.string() });
  const schema = z.object({
    list: z.array(item).default([]),
    maybe: item.nullable().optional(),
    piped: item.transform((value) => value.id),
    choice: z.union([z.object({ kind: z.literal('a'), a: z.string() }), z.object({ kind: z.literal('b') })]),
    strict: z.object({ s: z.string() }).strict(),
    loose: z.looseObject({ l: z.string() }),
  });

  it('walks arrays, optionals, pipes and the union option the value is for', () => {
    const value = {
      list: [{ id: '1' }, { id: '2', extra: 1 }],
      maybe: { id: '3', more: true },
      piped: { id: '4', also: 'x' },
      choice: { kind: 'b', a: 'not of option b' },
      top: 0,
    };
    expect(unknownFields(schema, value).sort()).toEqual(
      ['choice.a', 'list.1.extra', 'maybe.more', 'piped.also', 'top'].sort(),
    );
  });

  it('leaves strict objects to their own parse and open ones alone, and ignores undefined keys', () => {
    const value = { strict: { s: '', x: 1 }, loose: { l: '', y: 2 }, nothing: undefined };
    expect(unknownFields(schema, value)).toEqual([]);
    expect(schema.shape.strict.safeParse({ s: '', x: 1 }).success).toBe(false);
  });
});
