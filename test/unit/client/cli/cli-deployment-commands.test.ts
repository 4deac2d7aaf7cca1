/**
 * `cardflow deployment` and `cardflow histories`: bad usage is exit 2 naming the option and the
 * rule, before anything is contacted (the connect function throws if it is reached).
 */
import { runCli } from '../../../../client/cli/main';

async function cli(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env,
    connect: () => Promise.reject(new Error('Temporal was contacted')),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

it.each([
  [['deployment'], /expected list, set-current, ramp, rollback or retire/],
  [['deployment', 'promote'], /expected list, set-current, ramp, rollback or retire, not promote/],
  [['deployment', 'set-current'], /--build-id: required/],
  [['deployment', 'set-current', '--build-id', 'a:b'], /--build-id: letters, digits, - and _ only/],
  [['deployment', 'ramp', '--build-id', 'b1'], /--percent: required, a number from 0 to 100/],
  [['deployment', 'ramp', '--build-id', 'b1', '--percent', '150'], /--percent: required, a number from 0 to 100/],
  [['deployment', 'retire'], /--build-id: required/],
  [['deployment', 'list', '--deployment', 'cards.eu'], /--deployment: may hold only letters, digits, - and _/],
  [['deployment', 'list', '--amount', '1'], /deployment does not take --amount/],
  [['histories', 'export'], /--out: required/],
  [['histories', 'import', '--out', 'x'], /histories: expected export/],
  [['histories', 'export', '--out', 'x', '--limit', '0'], /--limit: must be a whole number of at least 1/],
  [['histories', 'export', '--out', 'x', '--since', 'yesterday'], /--since: must be an ISO time/],
])('%j is bad usage (exit 2), nothing contacted', async (args, message) => {
  const result = await cli(args);
  expect(result.code).toBe(2);
  expect(result.err).toMatch(message);
  expect(result.err).not.toMatch(/Temporal was contacted/);
});

it('refuses a malformed CARDFLOW_DEPLOYMENT_NAME before contacting anything', async () => {
  const result = await cli(['deployment', 'list'], { CARDFLOW_DEPLOYMENT_NAME: 'a b' });
  expect(result).toMatchObject({ code: 2 });
  expect(result.err).toMatch(/CARDFLOW_DEPLOYMENT_NAME: may hold only letters, digits, - and _/);
});
