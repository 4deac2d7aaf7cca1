/**
 * Exit codes per command (README, "exit codes"): a configuration error, here no codec key where
 * the dev key is not allowed (NODE_ENV=production), exits 2 with nothing started, for every command
 * that would contact Temporal; a malformed input file exits 2 naming the line and column only,
 * never quoting the file.
 */
import path from 'node:path';
import { runCli } from '../../../../client/cli/main';
import { ExitCodes } from '../../../../client/cli/context';
import { inputFiles } from '../../../support/input-files';

const examples = path.resolve(__dirname, '../../../../client/examples');
const example = (name: string) => path.join(examples, name);

/** Every command that reaches Temporal, with arguments that pass its own checks. */
const COMMANDS: [string, string[]][] = [
  ['onboard', ['onboard', '--file', example('customer.json')]],
  ['progress', ['progress', 'acme-1']],
  ['correct', ['correct', 'acme-1', '--file', example('correction.json')]],
  ['result', ['result', 'acme-1']],
  ['activate-onboarding', ['activate-onboarding', 'acme-1', '--file', example('activation-work-order.json')]],
  ['retry', ['retry', 'acme-1']],
  ['cancel', ['cancel', 'acme-1']],
  ['list', ['list']],
  ['activate', ['activate', '--file', example('card-activation-work-order.json')]],
  ['transfer', ['transfer', '--file', example('transfer.json')]],
  ['shared-account', ['shared-account', '--file', example('shared-account.json')]],
  ['fund-wallet', ['fund-wallet', '--file', example('funding.json')]],
  ['card freeze', ['card', 'freeze', 'C100', '--request', 'r1']],
  ['card deposit', ['card', 'deposit', 'C100', '--request', 'r1', '--amount', '10', '--card-type', '1']],
  ['card status', ['card', 'status', 'C100']],
  ['status', ['status', 'onboarding-acme-1']],
  ['reconcile', ['reconcile']],
];

async function run(args: string[], env: Record<string, string>) {
  const err: string[] = [];
  const out: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), env });
  return { code, err: err.join('\n'), out: out.join('\n') };
}

describe.each(COMMANDS)('%s', (_name, args) => {
  it('exits 2 when no codec key is configured (a configuration error), starting nothing', async () => {
    const result = await run(args, { NODE_ENV: 'production', TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(result.err).toMatch(/CARDFLOW_CODEC_KEYS/);
    expect(result.err).toMatch(/nothing was started$/);
    expect(result.code).toBe(ExitCodes.usage);
  });
});

describe('a malformed input file', () => {
  const files = inputFiles('cardflow-exit-');
  const idNumber = 'X9876543';

  it.each([
    ['an unquoted value', `{\n  "customerRef": "acme-1",\n  "holder": {\n    "idNumber": ${idNumber}\n  }\n}`, 4, 17],
    ['a missing comma', `{"customerRef": "acme-1" "idNumber": "${idNumber}"}`, 1, 26],
    ['a cut-off file', `{"holder": {"idNumber": "${idNumber}"`, 1, 35],
    ['an empty file', '', undefined, undefined],
  ])('with %s is refused by line and column, never quoting it', async (_case, text, line, column) => {
    const file = files.file('bad.json', text);
    for (const command of [
      ['onboard', '--file', file],
      ['correct', 'acme-1', '--file', file],
      ['transfer', '--file', file],
    ]) {
      const result = await run(command, {});
      expect(result.code).toBe(ExitCodes.usage);
      expect(result.err).not.toContain(idNumber);
      expect(result.err).not.toContain('acme-1"');
      if (line !== undefined)
        expect(result.err).toContain(`is not JSON: syntax error at line ${line}, column ${column}`);
      else expect(result.err).toContain('is not JSON: it ends before the JSON does');
    }
  });
});
