/**
 * `npm run schemas`: the JSON Schema of the onboarding input, generated from the zod schema the
 * client and the workflow validate with (domain/customer-onboarding.ts), for backends in other
 * languages (docs/other-languages.md). The file is committed; a unit test fails when it is stale.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { OnboardingInputSchema } from '../../domain/customer-onboarding';
import { entryPointArgs } from '../../platform/config/command-line';

export const ONBOARDING_INPUT_SCHEMA_FILE = path.resolve(
  __dirname,
  '..',
  '..',
  'docs',
  'schemas',
  'customer-onboarding-input.schema.json',
);

/**
 * The file's text: what a backend sends as the workflow's one argument (the input side of the
 * schema).
 */
export function onboardingInputJsonSchema(): string {
  const schema = z.toJSONSchema(OnboardingInputSchema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  });
  return `${JSON.stringify(
    {
      ...schema,
      title: 'customerOnboarding input',
    },
    null,
    2,
  )}\n`;
}

if (require.main === module) {
  entryPointArgs({
    name: 'npm run schemas',
    summary: `writes ${ONBOARDING_INPUT_SCHEMA_FILE}, the JSON Schema of the onboarding input, from its zod schema`,
  });
  writeFileSync(ONBOARDING_INPUT_SCHEMA_FILE, onboardingInputJsonSchema());
  console.log(ONBOARDING_INPUT_SCHEMA_FILE);
}
