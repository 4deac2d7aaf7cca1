/**
 * Every alert of tools/deploy/prometheus/cardflow-rules.yml links its runbook: a `runbook_url`
 * naming a section of docs/operations.md that exists and says what the alert means and what to do.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';

const ROOT = join(__dirname, '../../../..');

interface AlertRule {
  alert?: string;
  annotations?: Record<string, string>;
}

const rules = load(readFileSync(join(ROOT, 'tools/deploy/prometheus/cardflow-rules.yml'), 'utf8')) as {
  groups: Array<{ rules: AlertRule[] }>;
};
const alerts = rules.groups.flatMap((g) => g.rules).filter((r): r is AlertRule & { alert: string } => !!r.alert);

/** The level-2 sections of the runbook, by their heading's anchor (headings are alert names). */
function sections(markdown: string): Map<string, string> {
  const found = new Map<string, string>();
  const parts = markdown.split(/^## /m).slice(1);
  for (const part of parts) {
    const [heading, ...body] = part.split('\n');
    found.set(heading!.trim().toLowerCase(), body.join('\n'));
  }
  return found;
}

const runbook = sections(readFileSync(join(ROOT, 'docs/operations.md'), 'utf8'));

test('the rules define alerts', () => {
  expect(alerts.length).toBeGreaterThan(0);
});

test.each(alerts.map((a) => [a.alert, a] as const))('%s links its own runbook section', (name, rule) => {
  expect(rule.annotations?.runbook_url).toBe(`docs/operations.md#${name.toLowerCase()}`);
  const section = runbook.get(name.toLowerCase());
  expect(section).toBeDefined();
  expect(section).toMatch(/\*\*Means\*\*: \S/);
  expect(section).toMatch(/\*\*Do\*\*: \S/);
});
