/**
 * The physical card rules of customerOnboarding: card number against the card type, and the
 * activation request.
 */
import {
  isLuhnValid,
  OnboardingActivationRequestSchema,
  physicalCardIssues,
} from '../../../domain/onboarding-physical';
import { OnboardingInputSchema } from '../../../domain/customer-onboarding';
import { cardType } from './fixtures';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';

const physical = cardType({ cardTypeId: CARD_TYPE_IDS.physicalB2C, type: 'Physical', bankCardBin: '522981' });
const VALID = '5229810000000006';

function issuesOf(value: unknown): string[] {
  const parsed = OnboardingActivationRequestSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('physicalCardIssues', () => {
  it('accepts a Luhn-valid number of the bin', () => {
    expect(isLuhnValid(VALID)).toBe(true);
    expect(physicalCardIssues(physical, { cardNumber: VALID })).toEqual([]);
  });

  it('requires cardNumber for a physical card type, naming the field and the card type', () => {
    expect(physicalCardIssues(physical, {})).toEqual([
      {
        path: 'cardNumber',
        message: expect.stringContaining('is required for a physical card (card type 1852379830190366723)'),
      },
    ]);
  });

  it('refuses a wrong check digit, another bin and non-digits, without echoing the number', () => {
    const wrongDigit = physicalCardIssues(physical, { cardNumber: '5229810000000007' });
    expect(wrongDigit).toEqual([{ path: 'cardNumber', message: 'has an invalid check digit (Luhn)' }]);
    expect(physicalCardIssues(physical, { cardNumber: '4288520000000005' })[0]?.message).toContain('bin 522981');
    expect(physicalCardIssues(physical, { cardNumber: '5229 8100 0000 0006' })[0]?.message).toContain(
      '12 to 19 digits',
    );
    for (const issue of [...wrongDigit, ...physicalCardIssues(physical, { cardNumber: '4288520000000005' })])
      expect(issue.message).not.toMatch(/\d{12}/);
  });

  it('refuses cardNumber and activation for a virtual card type', () => {
    const issues = physicalCardIssues(cardType(), { cardNumber: VALID, activation: { route: 'work_order' } });
    expect(issues.map((i) => i.path)).toEqual(['cardNumber', 'activation']);
    expect(issues[0]?.message).toContain('is Virtual');
  });
});

describe('OnboardingActivationRequestSchema (input activation, activateCard Update)', () => {
  it('accepts a sealed PIN with a PIN-free amount, and a work order with files', () => {
    expect(issuesOf({ route: 'activation_code', sealedPin: 'c2VhbGVk+/base64==', noPinPaymentAmount: '300' })).toEqual(
      [],
    );
    expect(
      issuesOf({ route: 'work_order', workOrder: { files: [{ fileId: '42' }, { ref: 'delivery-note.pdf' }] } }),
    ).toEqual([]);
  });

  it('refuses a clear PIN in sealedPin (activationInputIssues)', () => {
    expect(issuesOf({ route: 'activation_code', sealedPin: '123456' })).toEqual([
      'sealedPin: looks like a clear PIN; seal it with the merchant public key (encryptSensitive) first',
    ]);
  });

  it('refuses a PIN-free amount outside 0–2000 and a missing sealed PIN', () => {
    expect(issuesOf({ route: 'activation_code', sealedPin: 'c2VhbGVk', noPinPaymentAmount: '2500' })).toEqual([
      'noPinPaymentAmount: must be between 0 and 2000',
    ]);
    expect(issuesOf({ route: 'activation_code' })).toEqual(['sealedPin: is required']);
  });

  it('refuses an unknown route, a work order without files and a file of another kind', () => {
    expect(issuesOf({ route: 'courier' })).toEqual(['route: must be activation_code or work_order']);
    expect(issuesOf({ route: 'work_order', workOrder: { files: [] } })).toEqual([
      'workOrder.files: must list at least one supporting file (fileId or ref)',
    ]);
    expect(issuesOf({ route: 'work_order', workOrder: { files: [{ ref: 'note.docx' }] } })).toEqual([
      'workOrder.files.0.ref: must end in one of .jpg, .jpeg, .png, .pdf',
    ]);
    expect(issuesOf({ route: 'work_order' })).toEqual(['workOrder: is required for the work_order route']);
  });

  it('is the rule of the onboarding input field `activation`', () => {
    const parsed = OnboardingInputSchema.safeParse({
      customerRef: 'c-1',
      cardTypeId: '1',
      cardNumber: VALID,
      activation: { route: 'activation_code', sealedPin: '654321' },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['activation.sealedPin']);
  });
});
