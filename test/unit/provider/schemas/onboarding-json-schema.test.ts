import { readFileSync } from 'node:fs';
import { OnboardingInputSchema } from '../../../../domain/customer-onboarding';
import { ONBOARDING_INPUT_SCHEMA_FILE, onboardingInputJsonSchema } from '../../../../tools/scripts/write-schemas';

describe('the published JSON Schema of the onboarding input', () => {
  it('is what `npm run schemas` generates from the zod schema today (run it and commit the file when this fails)', () => {
    expect(readFileSync(ONBOARDING_INPUT_SCHEMA_FILE, 'utf8')).toBe(onboardingInputJsonSchema());
  });

  it('requires what the zod schema requires, and no more', () => {
    const schema = JSON.parse(onboardingInputJsonSchema()) as { required: string[]; properties: object };
    expect(schema.required).toEqual(['customerRef', 'cardTypeId']);
    expect(Object.keys(schema.properties)).toEqual(Object.keys(OnboardingInputSchema.shape));
  });
});
