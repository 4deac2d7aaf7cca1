/**
 * `cardflow` conventions: help for every command and for each one, --version, options a command
 * does not take refused as bad usage, `list`'s visibility query built only from safe values, and
 * the sandbox commands' usage checked before anything is contacted.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COMMANDS, commandHelp, runCli, USAGE } from '../../../../client/cli/main';
import { ExitCodes } from '../../../../client/cli/context';
import { listQuery } from '../../../../client/cli/onboarding-commands';
import { runOffline as run } from './cli-run';

const version = (
  JSON.parse(readFileSync(path.join(__dirname, '../../../../package.json'), 'utf8')) as { version: string }
).version;

it('--help lists every command with its usage and the exit codes; --version prints the package version', async () => {
  const help = await run(['--help']);
  expect(help).toMatchObject({ code: 0, out: USAGE, connected: false });
  for (const command of COMMANDS) for (const line of command.usage) expect(USAGE).toContain(`cardflow ${line}`);
  expect(USAGE).toMatch(
    /exit codes: 0 done, 1 failed .* 2 bad usage or input \(nothing started\), 3 reconciliation found drift/,
  );
  expect(await run(['--version'])).toMatchObject({ code: 0, out: version });
  expect(await run([])).toMatchObject({ code: ExitCodes.usage, err: USAGE });
});

it.each(COMMANDS.map((c) => [c.name, c] as const))(
  '%s --help prints its own usage and summary',
  async (_name, command) => {
    const r = await run([command.name, '--help']);
    expect(r).toMatchObject({ code: 0, connected: false });
    expect(r.out).toBe(commandHelp(command));
    expect(r.out).toContain(command.summary);
    expect(r.out.split('\n')[0]).toBe(`usage: cardflow ${command.usage[0]!}`);
  },
);

it('an option a command does not take is bad usage, before anything is contacted', async () => {
  const r = await run(['progress', 'acme-1', '--file', 'x.json']);
  expect(r).toMatchObject({ code: ExitCodes.usage, connected: false });
  expect(r.err).toMatch(/^progress does not take --file/);
  const unknown = await run(['teleport']);
  expect(unknown).toMatchObject({ code: ExitCodes.usage, connected: false });
  expect(unknown.err).toMatch(/^unknown command teleport/);
});

it('read commands take --json; the others do not', () => {
  const withJson = COMMANDS.filter((c) => c.options.includes('json')).map((c) => c.name);
  expect(withJson).toEqual(
    expect.arrayContaining(['progress', 'result', 'status', 'card', 'list', 'cancel', 'sandbox']),
  );
  expect(withJson).not.toContain('onboard');
});

describe('list', () => {
  it('filters onboardings by stage, card, holder and customer through the search attributes', () => {
    expect(listQuery({})).toBe("CardflowFlow = 'onboarding'");
    expect(
      listQuery({
        stage: 'awaiting_delivery',
        card: '5229810000000002',
        holder: '1989887271659823105',
        customer: 'acme-1',
      }),
    ).toBe(
      "CardflowFlow = 'onboarding' AND CardflowStage = 'awaiting_delivery' AND CardflowCardNo = '5229810000000002' AND CardflowHolderId = '1989887271659823105' AND CardflowCustomerRef = 'acme-1'",
    );
    expect(listQuery({ flow: 'fund_transfer' })).toBe("CardflowFlow = 'fund_transfer'");
  });

  it('refuses an unknown stage and any value that could widen the query, before connecting', async () => {
    const stage = await run(['list', '--stage', 'sleeping']);
    expect(stage).toMatchObject({ code: ExitCodes.usage, connected: false });
    expect(stage.err).toMatch(/--stage: must be one of validating, cardholder_review/);
    const injected = await run(['list', '--card', "x' OR 'a'='a"]);
    expect(injected).toMatchObject({ code: ExitCodes.usage, connected: false });
    expect(injected.err).toMatch(/--card: must be letters, digits/);
  });
});

describe('sandbox', () => {
  const sandboxEnv = { CARDFLOW_PROVIDER_BASE_URL: 'http://127.0.0.1:9', CARDFLOW_PROVIDER_API_KEY: 'k' };
  it.each([
    [['sandbox'], /sandbox needs one of trigger, review, credit-deposit, resend, listen, faults, commits/],
    [['sandbox', 'trigger', 'refund'], /sandbox trigger needs: authorization/],
    [['sandbox', 'trigger', 'authorization', '--amount', '12.00'], /needs --card <cardNo>/],
    [
      ['sandbox', 'trigger', 'authorization', '--card', 'C1', '--amount', '12,00'],
      /--amount: must be a decimal amount/,
    ],
    [['sandbox', 'review', '19'], /needs one of --approve or --reject/],
    [['sandbox', 'review', '19', '--approve', '--reject', 'no'], /needs one of --approve or --reject/],
    [['sandbox', 'credit-deposit', 'TAddr'], /<amount>: must be a decimal amount/],
    [['sandbox', 'resend'], /sandbox resend needs a <requestId>/],
  ])('%j is bad usage: exit 2', async (args, message) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: sandboxEnv });
    expect(code).toBe(ExitCodes.usage);
    expect(err.join('\n')).toMatch(message);
  });

  it('needs the sandbox URL and key, and is refused in production', async () => {
    expect((await run(['sandbox', 'listen'])).err).toMatch(
      /need CARDFLOW_PROVIDER_BASE_URL and CARDFLOW_PROVIDER_API_KEY/,
    );
    const production = await run(['sandbox', 'listen'], {
      env: {
        CARDFLOW_ENV: 'production',
        NODE_ENV: 'production',
        CARDFLOW_PROVIDER_BASE_URL: 'https://api.provider.example.com',
        CARDFLOW_PROVIDER_API_KEY: 'live_key',
      },
    });
    expect(production).toMatchObject({ code: ExitCodes.usage });
    expect(production.err).toMatch(/refused with CARDFLOW_ENV=production/);
    // Production pointed at the sandbox is refused before any command runs
    // (platform/config/environment.ts).
    const mixed = await run(['sandbox', 'listen'], {
      env: { ...sandboxEnv, CARDFLOW_PROVIDER_API_KEY: 'sandbox_0a1b', CARDFLOW_ENV: 'production' },
    });
    expect(mixed).toMatchObject({ code: ExitCodes.usage });
    expect(mixed.err).toMatch(/^refusing to start, the environment is ambiguous or mixed:\n- NODE_ENV: /);
    expect(mixed.err).toMatch(/CARDFLOW_PROVIDER_API_KEY: CARDFLOW_ENV=production holds a sandbox API key/);
    expect(mixed.err).toMatch(/nothing was started$/);
  });
  it('sends the API key the configuration read, from its file form too', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cardflow-cli-sandbox-key-'));
    const file = path.join(dir, 'provider_api_key');
    writeFileSync(file, 'sandbox_from_file\n');
    const fetchSpy = jest
      .spyOn(globalThis, 'fetch')
      .mockImplementation(() => Promise.resolve(new Response(JSON.stringify({ success: true, data: {} }))));
    try {
      const triggered = await run(['sandbox', 'trigger', 'authorization', '--card', 'C1', '--amount', '1.00'], {
        env: { CARDFLOW_PROVIDER_BASE_URL: 'http://127.0.0.1:9', CARDFLOW_PROVIDER_API_KEY_FILE: file },
      });
      expect(triggered.code).toBe(ExitCodes.done);
      const [url, init] = fetchSpy.mock.calls[0]!;
      expect(url).toBe('http://127.0.0.1:9/sandbox/authorizeCard');
      expect((init?.headers as Record<string, string>)['X-WSB-API-KEY']).toBe('sandbox_from_file');
    } finally {
      fetchSpy.mockRestore();
      rmSync(dir, { recursive: true });
    }
  });
  it.each([
    ['CARDFLOW_ENV with a stray space', { CARDFLOW_ENV: 'production ' }],
    ['CARDFLOW_ENV in capitals', { CARDFLOW_ENV: 'Production' }],
    ['no CARDFLOW_ENV and a remote provider', { CARDFLOW_ENV: undefined, NODE_ENV: undefined }],
    ['a remote provider called a sandbox', { CARDFLOW_ENV: 'sandbox', NODE_ENV: undefined }],
  ])('never sends a production API key to a sandbox path: %s', async (_case, change) => {
    const fetchSpy = jest.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('no network in this test'));
    try {
      const base: Record<string, string | undefined> = {
        CARDFLOW_ENV: 'production',
        NODE_ENV: 'production',
        CARDFLOW_PROVIDER_BASE_URL: 'https://api.provider.example.com',
        CARDFLOW_PROVIDER_API_KEY: 'live_key',
      };
      const env = { ...base, ...change };
      const result = await run(['sandbox', 'commits'], {
        env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
      });
      expect(result.code).toBe(ExitCodes.usage);
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
    }
  });
});
