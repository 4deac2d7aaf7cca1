import { ConfigurationProblems } from '../../../platform/config/schema';
import { configured } from '../../support/configured';
/**
 * Reconciliation's configuration and `cardflow reconcile`'s usage, checked before Temporal is
 * contacted: durations and floors from the environment, `--since` as a time or a duration back,
 * each bad value named; and the report as a table.
 */
import { parseSince } from '../../../client/cli/reconcile-commands';
import { ExitCodes } from '../../../client/cli/context';
import { describeReport, reconcileSettings } from '../../../client/reconciliation';
import { parseDuration } from '../../../platform/config/values/duration';
import { FINDING_KINDS, emptyReport, withFindings } from '../../../domain/reconciliation';
import { runOffline as run } from './cli/cli-run';

it('reads durations and floors, keeping the defaults for what is not set', () => {
  expect(parseDuration('90s')).toBe(90_000);
  expect(parseDuration('15m')).toBe(900_000);
  expect(parseDuration('2d')).toBe(172_800_000);
  expect(parseDuration('250')).toBe(250);
  expect(parseDuration('1.5h')).toBeUndefined();
  expect(reconcileSettings(configured({}))).toEqual({
    config: {},
    intervalMs: 3_600_000,
    schedule: true,
  });
  expect(
    reconcileSettings(
      configured({
        CARDFLOW_RECONCILE_INTERVAL: '15m',
        CARDFLOW_RECONCILE_EVENT_GRACE: '2m',
        CARDFLOW_BALANCE_FLOOR: '1000.00',
        CARDFLOW_SHARED_ACCOUNT_FLOOR: '50',
        CARDFLOW_RECONCILE_SCHEDULE: '0',
      }),
    ),
  ).toEqual({
    config: { eventGraceMs: 120_000, walletFloor: '1000.00', sharedAccountFloor: '50' },
    intervalMs: 900_000,
    schedule: false,
  });
});

it('names every malformed variable at once', () => {
  const read = () =>
    reconcileSettings(
      configured({
        CARDFLOW_RECONCILE_INTERVAL: '10s',
        CARDFLOW_RECONCILE_OPERATION_SLA: 'soon',
        CARDFLOW_BALANCE_FLOOR: '-5',
      }),
    );
  expect(read).toThrow(ConfigurationProblems);
  expect(read).toThrow(/CARDFLOW_RECONCILE_OPERATION_SLA: must be a duration/);
  expect(read).toThrow(/CARDFLOW_BALANCE_FLOOR: must be a decimal amount/);
  expect(read).toThrow(/CARDFLOW_RECONCILE_INTERVAL: must be at least 1m/);
});

it('--since takes an ISO time or a duration back from now, never the future', () => {
  const now = Date.parse('2026-05-02T00:00:00Z');
  expect(parseSince('2h', now)).toBe(now - 7_200_000);
  expect(parseSince('2026-05-01T00:00:00Z', now)).toBe(Date.parse('2026-05-01T00:00:00Z'));
  expect(() => parseSince('yesterday', now)).toThrow(/--since: must be an ISO time/);
  expect(() => parseSince('2026-06-01', now)).toThrow(/must not be in the future/);
});

it('cardflow reconcile refuses a bad --since or variable before connecting', async () => {
  expect(await run(['reconcile', '--since', 'yesterday'])).toMatchObject({
    code: ExitCodes.usage,
    connected: false,
  });
  const floor = await run(['reconcile'], { env: { CARDFLOW_BALANCE_FLOOR: 'plenty' } });
  expect(floor).toMatchObject({ code: ExitCodes.usage, connected: false });
  expect(floor.err).toContain('CARDFLOW_BALANCE_FLOOR');
  expect(await run(['reconcile', '--schedule', '--since', '2h'])).toMatchObject({
    code: ExitCodes.usage,
    connected: false,
  });
  expect(await run(['reconcile', '--file', 'x.json'])).toMatchObject({ code: ExitCodes.usage, connected: false });
});

it('prints the report as a table: one row per account and per finding, repaired ones marked', () => {
  const report = withFindings(
    {
      ...emptyReport({ start: Date.parse('2026-05-01T00:00:00Z'), end: Date.parse('2026-05-01T01:00:00Z') }),
      accounts: [
        {
          accountId: '19847563867367666',
          accountType: 'WALLET',
          currency: 'USD',
          entries: 3,
          cardflow: 2,
          provider: 1,
          external: 0,
          openingBalance: '100.00',
          recomputedBalance: '79.80',
          providerBalance: '79.80',
          availableBalance: '79.80',
        },
      ],
    },
    [
      {
        kind: FINDING_KINDS.missedEvent,
        ids: { merchantOrderNo: 'CF1', workflowId: 'w' },
        detail: 'd1',
        action: 're-delivered to w',
        repaired: true,
      },
      { kind: FINDING_KINDS.belowFloor, ids: { accountId: '1' }, detail: 'd2', action: 'fund it' },
    ],
  );
  const text = describeReport(report);
  expect(text).toContain(
    'reconciliation 2026-05-01T00:00:00.000Z .. 2026-05-01T01:00:00.000Z: 2 finding(s), 1 repaired, 1 for an operator',
  );
  expect(text).toMatch(/19847563867367666 +WALLET +3 +2 +1 +0 +100\.00 +79\.80 +79\.80 USD/);
  expect(text).toMatch(/missed event \(repaired\) +merchantOrderNo=CF1 workflowId=w +d1 +re-delivered to w/);
  expect(text).toMatch(/below floor +accountId=1 +d2 +fund it/);
});
