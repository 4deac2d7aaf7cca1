/**
 * The alert rules of tools/deploy/prometheus/cardflow-rules.yml, made fast enough for a test: every
 * `for:` becomes {@link TEST_FOR} and every stage SLA {@link TEST_SLA_SECONDS}. Expressions,
 * names, labels and thresholds other than the SLAs are the deployed ones, so an alert that fires
 * here fires in production on the same series, only later.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';

export const DEPLOYED_RULES = join(__dirname, '../../../tools/deploy/prometheus/cardflow-rules.yml');
export const TEST_FOR = '2s';
export const TEST_SLA_SECONDS = 8;

interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
}

/** Writes the fast copy into `dir` and returns its path. */
export function writeTestRules(dir: string): string {
  const rules = load(readFileSync(DEPLOYED_RULES, 'utf8')) as { groups: Array<{ name: string; rules: Rule[] }> };
  for (const group of rules.groups)
    for (const rule of group.rules) {
      if (rule.alert && rule.for !== undefined) rule.for = TEST_FOR;
      if (rule.record === 'cardflow:onboarding_stage_sla_seconds') {
        if (!/^vector\(\d+\)$/.test(rule.expr.trim())) throw new Error(`unexpected SLA rule: ${rule.expr}`);
        rule.expr = `vector(${TEST_SLA_SECONDS})`;
      }
    }
  const file = join(dir, 'cardflow-rules.test-fast.yml');
  writeFileSync(file, dump(rules));
  return file;
}
