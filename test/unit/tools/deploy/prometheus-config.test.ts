/**
 * The shipped Prometheus configuration (tools/deploy/prometheus/prometheus.yml) and the shipped
 * rules agree: every job a rule selects on is a job the configuration scrapes, and the
 * configuration loads the rule file. A renamed job would otherwise leave its alerts silently never
 * firing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';

const DIR = join(__dirname, '../../../../tools/deploy/prometheus');

interface PrometheusConfig {
  rule_files: string[];
  scrape_configs: { job_name: string }[];
}
interface RuleFile {
  groups: { rules: { alert?: string; record?: string; expr: string }[] }[];
}

const config = load(readFileSync(join(DIR, 'prometheus.yml'), 'utf8')) as PrometheusConfig;
const rules = load(readFileSync(join(DIR, 'cardflow-rules.yml'), 'utf8')) as RuleFile;
const scraped = config.scrape_configs.map((c) => c.job_name);

/**
 * The job names an expression selects on: `job="x"` literally, or every scraped job `job=~"re"`
 * matches.
 */
function jobsSelected(expr: string): { literal: string[]; patterns: RegExp[] } {
  const literal = [...expr.matchAll(/job\s*=\s*"([^"]+)"/g)].map((m) => m[1]!);
  const patterns = [...expr.matchAll(/job\s*=~\s*"([^"]+)"/g)].map((m) => new RegExp(`^(?:${m[1]!})$`));
  return { literal, patterns };
}

it('loads the shipped rule file', () => {
  expect(config.rule_files).toContain('cardflow-rules.yml');
});

it('scrapes every job a rule selects on, and a pattern matches at least one scraped job', () => {
  const missing: string[] = [];
  for (const rule of rules.groups.flatMap((g) => g.rules)) {
    const { literal, patterns } = jobsSelected(rule.expr);
    for (const job of literal) if (!scraped.includes(job)) missing.push(`${rule.alert ?? rule.record}: ${job}`);
    for (const re of patterns)
      if (!scraped.some((j) => re.test(j))) missing.push(`${rule.alert ?? rule.record}: ${re}`);
  }
  expect(missing).toEqual([]);
  // The rules do select on jobs: the check above is not vacuous.
  expect(rules.groups.flatMap((g) => g.rules).filter((r) => /job\s*=/.test(r.expr)).length).toBeGreaterThan(0);
});

it('scrapes every cardflow process kind and the Temporal server', () => {
  expect([...scraped].sort()).toEqual(['cardflow-codec-server', 'cardflow-webhooks', 'cardflow-worker', 'temporal']);
});
