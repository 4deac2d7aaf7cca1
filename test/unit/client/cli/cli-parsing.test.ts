/**
 * `cardflow`'s command line as commander reads it: a `help` command, strict options and arguments
 * (one short line naming what was wrong, then the command's usage), and a Temporal address where
 * nothing listens reported within about 2 s when trying once, naming the address (exit 4).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { COMMANDS, commandHelp, runCli, USAGE } from '../../../../client/cli/main';
import { ExitCodes } from '../../../../client/cli/context';
import { argumentLimit } from '../../../../client/cli/parse';
import { runOffline as run } from './cli-run';

const command = (name: string) => COMMANDS.find((c) => c.name === name)!;

it('cardflow help lists the commands; cardflow help <command> shows that one', async () => {
  expect(await run(['help'])).toMatchObject({ code: 0, out: USAGE, connected: false });
  for (const name of ['progress', 'card', 'sandbox'])
    expect(await run(['help', name])).toMatchObject({ code: 0, out: commandHelp(command(name)), connected: false });
  expect(await run(['-h'])).toMatchObject({ code: 0, out: USAGE });
  expect(await run(['card', '-h'])).toMatchObject({ code: 0, out: commandHelp(command('card')) });
});

it.each([
  [
    ['progress', 'acme-1', 'acme-2'],
    /^progress takes at most 1 argument, got more\nusage: cardflow progress <customerRef>/,
  ],
  [['onboard', 'customer.json'], /^onboard takes no arguments, got more\nusage: cardflow onboard --file/],
  [
    ['card', 'freeze', '5229', 'extra', '--request', 'r1'],
    /^card takes at most 2 arguments, got more\nusage: cardflow card/,
  ],
  [
    ['progress', 'acme-1', '--jsn'],
    /^progress does not take --jsn\nusage: cardflow progress <customerRef> \[--watch\] \[--json\]$/,
  ],
  [['onboard', '--file'], /^onboard: --file needs a value\nusage: cardflow onboard/],
  [['teleport'], /^unknown command teleport\ncardflow help lists the commands$/],
])('%j is bad usage in one short message, nothing contacted', async (args, message) => {
  const r = await run(args);
  expect(r).toMatchObject({ code: ExitCodes.usage, connected: false });
  expect(r.err).toMatch(message);
  // Short: the command's usage lines, never the whole list of commands.
  expect(r.err).not.toContain('exit codes:');
});

it('reads the options a command takes, short forms and --task-queue included', async () => {
  const r = await run(['progress', 'acme-1', '-w', '--json', '--task-queue', 'q1']);
  // Valid usage goes on to Temporal (refused in this test: exit 1 with the reason).
  expect(r).toMatchObject({ connected: true, code: ExitCodes.failed });
});

it('argument limits come from the usage lines', () => {
  const limits = Object.fromEntries(COMMANDS.map((c) => [c.name, argumentLimit(c)]));
  expect(limits).toMatchObject({ onboard: 0, progress: 1, card: 2, sandbox: 3, status: 1, list: 0, reconcile: 0 });
});

it('with a retry window of 0 (try once), a Temporal address where nothing listens fails within about 2 s, naming it (exit 4)', async () => {
  // A port that was just free: bound, then closed, so nothing listens there.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  const address = `127.0.0.1:${port}`;
  const err: string[] = [];
  const started = Date.now();
  const code = await runCli(['status', 'onboarding-acme-1'], {
    out: () => undefined,
    err: (l) => err.push(l),
    env: {
      TEMPORAL_ADDRESS: address,
      CARDFLOW_TEMPORAL_RIDE_OUT_MS: '0',
      CARDFLOW_CODEC_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    },
  });
  const elapsed = Date.now() - started;
  expect(code).toBe(ExitCodes.unavailable);
  expect(err.join('\n')).toContain(`nothing listens at the Temporal address ${address} (ECONNREFUSED)`);
  // Not the connection's own connect deadline (10 s) that trying once used to cost.
  expect(elapsed).toBeLessThan(5_000);
});
