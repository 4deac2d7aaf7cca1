/**
 * The rule of cardflow's duration variables and options (`CARDFLOW_NOTIFY_WINDOW`, the
 * reconciliation windows, the CLI's `--since`): a whole number with a unit.
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `15m`, `1h`, `2d` or plain milliseconds; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,9})(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] ?? 'ms']!;
}
