/** Small statistics for the bench's printed figures. */

/** The p-th percentile (0..100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Adjacent pairs of `got` that `order` (the reference) has the other way round: 0 when `got` keeps
 * the reference's order. An item the reference lacks counts as its first.
 */
export function orderViolations(got: readonly string[], order: readonly string[]): number {
  const rank = new Map(order.map((item, i) => [item, i]));
  let violations = 0;
  for (let i = 1; i < got.length; i++) if ((rank.get(got[i]!) ?? 0) < (rank.get(got[i - 1]!) ?? 0)) violations += 1;
  return violations;
}
