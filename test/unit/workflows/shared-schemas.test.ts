/**
 * Workers preload the schemas of workflows/preload/shared-schemas.ts once and share them,
 * deep-frozen by the SDK, between workflow runs. Frozen here as the SDK freezes them (with the
 * libraries under them), after which they must validate as before: what zod fills in on first
 * use and a pattern's lastIndex would throw here first.
 */
import type * as CardholderData from '../../../domain/cardholder-data';
import type * as CustomerOnboarding from '../../../domain/customer-onboarding';
import type * as OnboardingPhysical from '../../../domain/onboarding-physical';
import { b2bHolder } from '../../fixtures/holders';
import { deepFreeze } from './deep-freeze';

it('the schemas workers share (workflows/preload/shared-schemas.ts) validate alike once frozen as the worker freezes them', () => {
  jest.requireActual('../../../workflows/preload/shared-libraries');
  const shared = jest.requireActual<{ sharedSchemaModules: object[] }>('../../../workflows/preload/shared-schemas');
  for (const library of ['zod', 'decimal.js', 'lossless-json']) deepFreeze(jest.requireActual(library));
  for (const module of shared.sharedSchemaModules) deepFreeze(module);
  // What they import is shared too: the patterns exported with the field rules among it.
  for (const module of ['provider/rules', 'domain/workflow-ids', 'provider/money', 'provider/json'])
    deepFreeze(jest.requireActual(`../../../${module}`));
  const { OnboardingInputSchema } = jest.requireActual<typeof CustomerOnboarding>(
    '../../../domain/customer-onboarding',
  );
  const { cardholderDataIssues } = jest.requireActual<typeof CardholderData>('../../../domain/cardholder-data');
  const physical = jest.requireActual<typeof OnboardingPhysical>('../../../domain/onboarding-physical');
  // The same module objects the workflow gets: frozen, not rebuilt.
  expect(Object.isFrozen(OnboardingInputSchema)).toBe(true);

  const input = {
    customerRef: 'frozen-2',
    cardTypeId: '1001',
    holder: b2bHolder('ada@example.com'),
    initialDeposit: '20.00',
  };
  for (let i = 0; i < 3; i++) expect(OnboardingInputSchema.safeParse(input).success).toBe(true);
  const refused = OnboardingInputSchema.safeParse({ ...input, customerRef: 'has space', initialDeposit: 20 });
  expect(refused.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['customerRef', 'initialDeposit']);
  const funding = OnboardingInputSchema.safeParse({ ...input, funding: { source: 'on_chain', coinKey: 'bad key' } });
  expect(funding.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
    'funding.coinKey',
    'funding.expectedAmount',
  ]);
  const card = OnboardingInputSchema.safeParse({ ...input, cardNumber: '4111 1111' });
  expect(card.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['cardNumber']);

  const issues = cardholderDataIssues(b2bHolder('not-an-email', { country: 'usa' }));
  expect(issues.map((i) => i.path).sort()).toEqual(['holder.country', 'holder.email']);
  expect(cardholderDataIssues(b2bHolder('ada@example.com'))).toEqual([]);
  const activation = physical.OnboardingActivationRequestSchema.safeParse({ route: 'activation_code', pin: '12' });
  expect(activation.success).toBe(false);
});
