/**
 * The configuration schema (platform/config/schema.ts): every variable the production code names is
 * declared, README's table is the one generated from it, and a configuration is checked whole,
 * every problem listed at once.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EnvironmentError } from '../../../../platform/config/environment';
import {
  configured,
  ConfigurationProblems,
  readConfiguration,
  readVariable,
  schemaDefault,
  VARIABLES,
} from '../../../../platform/config/schema';
import { configurationTable, withConfigurationTable } from '../../../../platform/config/table';

const root = path.join(__dirname, '../../../..');

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    readConfiguration(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigurationProblems || error instanceof EnvironmentError) return error.problems;
    throw error;
  }
}

it("README's configuration table is the one generated from the schema (npm run config-table)", () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  expect(readme).toBe(withConfigurationTable(readme));
});

it('holds each default as the text of its variable, read by its rule as a set value is', () => {
  expect(schemaDefault('CARDFLOW_CODEC_SERVER_PORT')).toBe(8888);
  expect(schemaDefault('CARDFLOW_NOTIFY_WINDOW')).toBe(3_600_000);
  expect(schemaDefault('CARDFLOW_CODEC_SERVER_ORIGINS')).toEqual(['http://127.0.0.1:8233', 'http://localhost:8233']);
  expect(schemaDefault('CARDFLOW_DEPLOYMENT_BOOTSTRAP')).toBe('first');
  // A set value wins, a falsy one included; an unset one takes the default.
  expect(configured(readConfiguration({ CARDFLOW_CODEC_SERVER_PORT: '0' }), 'CARDFLOW_CODEC_SERVER_PORT')).toBe(0);
  expect(configured(readConfiguration({}), 'CARDFLOW_WORKER_VERSIONING')).toBe(true);
  // README shows the text itself, with the remark after it.
  expect(configurationTable()).toContain('| `384` (192 cached) |');
});

it('declares every CARDFLOW_ variable the production code names', () => {
  const folders = ['provider', 'activities', 'client', 'domain', 'platform', 'webhooks', 'workers', 'workflows'];
  const more = ['tools/sandbox', 'tools/scripts', 'tools/deploy'];
  const named = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const file = path.join(dir, entry);
      if (statSync(file).isDirectory()) walk(file);
      else if (file.endsWith('.ts'))
        for (const m of readFileSync(file, 'utf8').matchAll(/\bCARDFLOW_[A-Z0-9_]*[A-Z0-9]\b/g)) named.add(m[0]);
    }
  };
  for (const folder of [...folders, ...more]) walk(path.join(root, folder));
  const declared = new Set(
    Object.entries(VARIABLES).flatMap(([name, v]) => (v.fileForm ? [name, `${name}_FILE`] : [name])),
  );
  // Constants that are no variables.
  const notVariables = ['CARDFLOW_ENVS', 'CARDFLOW_TASK_QUEUE', 'CARDFLOW_ORDER_NO_RE', 'CARDFLOW_DATABASE'];
  const undeclared = [...named].filter((n) => !declared.has(n) && !notVariables.includes(n)).sort();
  expect(undeclared).toEqual([]);
});

it('lists every problem at once, each naming its variable and rule', () => {
  expect(
    problemsOf({
      CARDFLOW_WEBHOOK_PORT: '70000',
      CARDFLOW_PROBE_SLOTS: 'many',
      CARDFLOW_RECONCILE_INTERVAL: '30s',
      CARDFLOW_LOG_LEVEL: 'loud',
      CARDFLOW_CODEC_SERVER_TOKENLESS: 'sometimes',
      CARDFLOW_METRICS_ADDRESS: '9464',
    }),
  ).toEqual([
    'CARDFLOW_PROBE_SLOTS: must be a whole number from 1 to 9999999',
    'CARDFLOW_WEBHOOK_PORT: must be a TCP port from 1 to 65535',
    'CARDFLOW_CODEC_SERVER_TOKENLESS: must be one of never, loopback, any',
    expect.stringMatching(/^CARDFLOW_LOG_LEVEL: must be one of TRACE, DEBUG, INFO, WARN, ERROR/),
    'CARDFLOW_METRICS_ADDRESS: must be host:port with a port from 1 to 65535 (e.g. 0.0.0.0:9464)',
    'CARDFLOW_RECONCILE_INTERVAL: must be at least 1m',
  ]);
});

it('reads one variable by the rule the whole configuration reads it with', () => {
  expect(readVariable('CARDFLOW_LOG_LEVEL', { CARDFLOW_LOG_LEVEL: ' warn ' })).toBe('WARN');
  expect(readVariable('CARDFLOW_LOG_LEVEL', { CARDFLOW_LOG_LEVEL: '' })).toBeUndefined();
  expect(readVariable('CARDFLOW_LOG_LEVEL', {})).toBeUndefined();
  expect(() => readVariable('CARDFLOW_LOG_LEVEL', { CARDFLOW_LOG_LEVEL: 'loud' })).toThrow(
    /CARDFLOW_LOG_LEVEL: must be one of TRACE, DEBUG, INFO, WARN, ERROR/,
  );
  // A problem elsewhere in the environment is not this variable's.
  expect(readVariable('CARDFLOW_LOG_LEVEL', { CARDFLOW_LOG_LEVEL: 'error', CARDFLOW_WEBHOOK_PORT: '' })).toBe('ERROR');
});

it('an empty port is an error, never port 0; other empty variables are unset', () => {
  expect(problemsOf({ CARDFLOW_WEBHOOK_PORT: '' })).toEqual([
    'CARDFLOW_WEBHOOK_PORT: is set but empty (unset it for the default `4100`)',
  ]);
  expect(problemsOf({ CARDFLOW_WEBHOOK_HOST: '', CARDFLOW_PROBE_SLOTS: '  ' })).toEqual([]);
  expect(readConfiguration({ CARDFLOW_WEBHOOK_PORT: '4101' }).CARDFLOW_WEBHOOK_PORT).toBe(4101);
});

describe('the X or X_FILE rule, written once', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cardflow-config-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the file form, and refuses both or an unreadable file, naming the variable and never the value', () => {
    const file = path.join(dir, 'token');
    writeFileSync(file, 'a-token-of-sixteen-characters\n');
    expect(readConfiguration({ CARDFLOW_CODEC_SERVER_TOKEN_FILE: file }).CARDFLOW_CODEC_SERVER_TOKEN).toEqual({
      value: 'a-token-of-sixteen-characters',
      from: 'CARDFLOW_CODEC_SERVER_TOKEN_FILE',
    });
    const both = problemsOf({
      CARDFLOW_CODEC_SERVER_TOKEN: 'secret-value-123456',
      CARDFLOW_CODEC_SERVER_TOKEN_FILE: file,
    });
    expect(both).toEqual(['CARDFLOW_CODEC_SERVER_TOKEN and CARDFLOW_CODEC_SERVER_TOKEN_FILE: set only one']);
    const missing = path.join(dir, 'absent');
    expect(problemsOf({ CARDFLOW_MERCHANT_PRIVATE_KEY_FILE: missing })).toEqual([
      `CARDFLOW_MERCHANT_PRIVATE_KEY_FILE=${missing}: cannot read the file (ENOENT)`,
    ]);
  });
});

it('the interlock alone keeps its own refusal; with other problems, one list holds them all', () => {
  expect(() => readConfiguration({ CARDFLOW_ENV: 'Production' })).toThrow(EnvironmentError);
  expect(problemsOf({ CARDFLOW_ENV: 'Production', CARDFLOW_PROBE_SLOTS: '0' })).toEqual([
    'CARDFLOW_PROBE_SLOTS: must be a whole number from 1 to 9999999',
    'CARDFLOW_ENV="Production": must be exactly sandbox or production',
  ]);
});

it('reads CARDFLOW_ENV exactly as set, where every other variable is trimmed', () => {
  expect(readConfiguration({ CARDFLOW_ENV: 'sandbox' }).CARDFLOW_ENV).toBe('sandbox');
  expect(readConfiguration({ CARDFLOW_SANDBOX_HOSTS: ' sandbox ' }).CARDFLOW_SANDBOX_HOSTS).toBe('sandbox');
  expect(problemsOf({ CARDFLOW_ENV: 'sandbox ', CARDFLOW_PROBE_SLOTS: '0' })).toEqual([
    'CARDFLOW_PROBE_SLOTS: must be a whole number from 1 to 9999999',
    'CARDFLOW_ENV="sandbox ": must be exactly sandbox or production',
  ]);
});

it('weighs the sandbox API key the configuration read from its file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cardflow-schema-interlock-'));
  const file = path.join(dir, 'provider_api_key');
  writeFileSync(file, 'sandbox_0a1b2c\n');
  const production = { CARDFLOW_ENV: 'production', NODE_ENV: 'production', CARDFLOW_PROVIDER_API_KEY_FILE: file };
  expect(() => readConfiguration(production)).toThrow(
    'CARDFLOW_PROVIDER_API_KEY_FILE: CARDFLOW_ENV=production holds a sandbox API key',
  );
  writeFileSync(file, 'live_0123456789\n');
  expect(readConfiguration(production).CARDFLOW_PROVIDER_API_KEY).toEqual({
    value: 'live_0123456789',
    from: 'CARDFLOW_PROVIDER_API_KEY_FILE',
  });
  rmSync(dir, { recursive: true });
});
