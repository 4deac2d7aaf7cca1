/**
 * Workers preload the libraries of workflows/preload/shared-libraries.ts once and share them,
 * deep-frozen by the SDK, between workflow runs; each run then builds cardflow's own schemas on
 * top of them. Frozen here as the SDK freezes them (every value reachable from the modules'
 * exports, and zod's globals), after which the workflow-side schemas, money and merchantOrderNo
 * derivation must still work: a value zod or decimal.js fills in lazily on a shared object would
 * throw here first.
 */
import type * as MoneyModule from '../../../provider/money';
import type * as CardholderData from '../../../domain/cardholder-data';
import type * as CustomerOnboarding from '../../../domain/customer-onboarding';
import type * as Workflows from '../../../domain/workflows';
import { b2bHolder } from '../../fixtures/holders';
import { deepFreeze } from './deep-freeze';

it('the schemas, money and order keys of workflows work on frozen shared libraries', () => {
  jest.requireActual('../../../workflows/preload/shared-libraries');
  for (const shared of ['zod', 'decimal.js', 'lossless-json', '@noble/hashes/sha2', '@noble/hashes/utils'])
    deepFreeze(jest.requireActual(shared));
  const zodGlobals = globalThis as { __zod_globalConfig?: unknown; __zod_globalRegistry?: unknown };
  deepFreeze(zodGlobals.__zod_globalConfig);
  deepFreeze(zodGlobals.__zod_globalRegistry);

  // Loaded after the freeze, as a workflow run loads them.
  const { OnboardingInputSchema } = jest.requireActual<typeof CustomerOnboarding>(
    '../../../domain/customer-onboarding',
  );
  const { cardholderDataIssues } = jest.requireActual<typeof CardholderData>('../../../domain/cardholder-data');
  const { cardIssuanceWorkflow } = jest.requireActual<typeof Workflows>('../../../domain/workflows');
  const { Money } = jest.requireActual<typeof MoneyModule>('../../../provider/money');

  const input = {
    customerRef: 'frozen-1',
    cardTypeId: '1001',
    holder: b2bHolder('ada@example.com'),
    initialDeposit: '20.00',
  };
  expect(OnboardingInputSchema.safeParse(input).success).toBe(true);
  const refused = OnboardingInputSchema.safeParse({ ...input, initialDeposit: 20 });
  expect(refused.success).toBe(false);
  expect(refused.error?.issues[0]?.path).toEqual(['initialDeposit']);

  const issues = cardholderDataIssues(b2bHolder('not-an-email', { country: 'usa' }));
  expect(issues.map((i) => i.path).sort()).toEqual(['holder.country', 'holder.email']);
  expect(issues.every((i) => i.message.length > 0)).toBe(true);
  expect(cardholderDataIssues({ shape: 'XYZ' })).toHaveLength(1);

  expect(new Money('10.10').plus('0.20').toFixed(2)).toBe('10.30');
  expect(cardIssuanceWorkflow.orderKeys('onboarding-frozen-1/card').create).toMatch(/^[0-9A-Za-z]{20,40}$/);
});
