import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  canonicalHost,
  checkEnvironment,
  EnvironmentError,
  isLoopbackHost,
  resolveEnvironment,
} from '../../../../platform/config/environment';
import { readConfiguration, readInterlock } from '../../../../platform/config/schema';
import { ensureSandboxKeys, KEY_FILES } from '../../../../tools/sandbox/keys';
import { thrownBy } from '../../../support/thrown';

const key = Buffer.alloc(32, 7).toString('base64');
/** A production configuration that breaks no rule; each test breaks one. */
const production = {
  CARDFLOW_ENV: 'production',
  NODE_ENV: 'production',
  CARDFLOW_PROVIDER_BASE_URL: 'https://api.provider.example.com',
  CARDFLOW_PROVIDER_API_KEY: 'live_0123456789',
  CARDFLOW_CODEC_KEYS: `k20260101:${key}`,
};

const problemsOf = (env: Record<string, string | undefined>): readonly string[] =>
  thrownBy(() => checkEnvironment(readInterlock(env)), EnvironmentError).problems;

describe('CARDFLOW_ENV', () => {
  it('accepts a clean production configuration', () => {
    expect(checkEnvironment(readInterlock(production))).toBe('production');
  });

  it('refuses a value other than sandbox or production', () => {
    expect(problemsOf({ CARDFLOW_ENV: 'staging' })).toEqual([
      'CARDFLOW_ENV="staging": must be exactly sandbox or production',
    ]);
  });

  it('treats unset as a sandbox when the provider is on loopback or not configured', () => {
    expect(checkEnvironment(readInterlock({}))).toBe('sandbox');
    expect(checkEnvironment(readInterlock({ CARDFLOW_PROVIDER_BASE_URL: 'http://127.0.0.1:8787' }))).toBe('sandbox');
    expect(checkEnvironment(readInterlock({ CARDFLOW_PROVIDER_BASE_URL: 'http://localhost:8787/api' }))).toBe(
      'sandbox',
    );
  });

  it('never guesses when unset and the provider is remote', () => {
    const [problem] = problemsOf({ CARDFLOW_PROVIDER_BASE_URL: 'https://api.provider.example.com' });
    expect(problem).toMatch(
      /^CARDFLOW_ENV is not set while CARDFLOW_PROVIDER_BASE_URL points at api\.provider\.example\.com/,
    );
  });
});

describe('CARDFLOW_ENV=sandbox', () => {
  it('accepts loopback and the hosts of CARDFLOW_SANDBOX_HOSTS', () => {
    expect(
      checkEnvironment(readInterlock({ CARDFLOW_ENV: 'sandbox', CARDFLOW_PROVIDER_BASE_URL: 'http://[::1]:8787' })),
    ).toBe('sandbox');
    expect(
      checkEnvironment(
        readInterlock({
          CARDFLOW_ENV: 'sandbox',
          CARDFLOW_PROVIDER_BASE_URL: 'http://sandbox:8787',
          CARDFLOW_SANDBOX_HOSTS: 'other, sandbox',
        }),
      ),
    ).toBe('sandbox');
  });

  it('refuses any other host', () => {
    expect(
      problemsOf({
        CARDFLOW_ENV: 'sandbox',
        CARDFLOW_PROVIDER_BASE_URL: 'https://api.provider.example.com',
        CARDFLOW_SANDBOX_HOSTS: 'sandbox',
      }),
    ).toEqual([
      'CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=sandbox must point at loopback or a host listed in CARDFLOW_SANDBOX_HOSTS, not api.provider.example.com',
    ]);
  });
});

describe('CARDFLOW_ENV=production', () => {
  it('needs NODE_ENV=production', () => {
    expect(problemsOf({ ...production, NODE_ENV: 'development' })).toEqual([
      'NODE_ENV: CARDFLOW_ENV=production needs NODE_ENV=production (got development)',
    ]);
  });

  it('refuses plain http', () => {
    expect(problemsOf({ ...production, CARDFLOW_PROVIDER_BASE_URL: 'http://api.provider.example.com' })).toEqual([
      'CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=production needs https, not http:',
    ]);
  });

  it('refuses a notify URL that is not https, loopback included; a sandbox takes plain http', () => {
    for (const url of ['http://backend.example.com/events', 'http://127.0.0.1:3000/events'])
      expect(problemsOf({ ...production, CARDFLOW_NOTIFY_URL: url })).toEqual([
        'CARDFLOW_NOTIFY_URL: CARDFLOW_ENV=production needs https, not http: (notifications carry 3DS codes)',
      ]);
    expect(
      checkEnvironment(readInterlock({ ...production, CARDFLOW_NOTIFY_URL: 'https://backend.example.com/e' })),
    ).toBe('production');
    // A worker reads its configuration at start: it stops there.
    expect(() => readConfiguration({ ...production, CARDFLOW_NOTIFY_URL: 'http://127.0.0.1:3000/events' })).toThrow(
      /CARDFLOW_NOTIFY_URL: CARDFLOW_ENV=production needs https/,
    );
    expect(checkEnvironment(readInterlock({ CARDFLOW_NOTIFY_URL: 'http://127.0.0.1:3000/events' }))).toBe('sandbox');
    expect(
      checkEnvironment(readInterlock({ CARDFLOW_ENV: 'sandbox', CARDFLOW_NOTIFY_URL: 'http://backend:3000/events' })),
    ).toBe('sandbox');
  });

  it('refuses a sandbox: loopback or a listed sandbox host', () => {
    expect(problemsOf({ ...production, CARDFLOW_PROVIDER_BASE_URL: 'https://127.0.0.1:8787' })).toEqual([
      'CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=production points at a sandbox host (127.0.0.1, loopback or in CARDFLOW_SANDBOX_HOSTS)',
    ]);
    expect(
      problemsOf({ ...production, CARDFLOW_PROVIDER_BASE_URL: 'https://sandbox', CARDFLOW_SANDBOX_HOSTS: 'sandbox' }),
    ).toHaveLength(1);
  });

  it('refuses a sandbox API key', () => {
    expect(problemsOf({ ...production, CARDFLOW_PROVIDER_API_KEY: 'sandbox_0a1b2c' })).toEqual([
      'CARDFLOW_PROVIDER_API_KEY: CARDFLOW_ENV=production holds a sandbox API key (sandbox_…)',
    ]);
  });

  it('refuses a sandbox API key read from its file too', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cardflow-env-key-'));
    const file = path.join(dir, 'provider_api_key');
    writeFileSync(file, 'sandbox_0a1b2c\n');
    const { CARDFLOW_PROVIDER_API_KEY: _inline, ...withoutInline } = production;
    expect(problemsOf({ ...withoutInline, CARDFLOW_PROVIDER_API_KEY_FILE: file })).toEqual([
      'CARDFLOW_PROVIDER_API_KEY_FILE: CARDFLOW_ENV=production holds a sandbox API key (sandbox_…)',
    ]);
    writeFileSync(file, 'live_0123456789\n');
    expect(checkEnvironment(readInterlock({ ...withoutInline, CARDFLOW_PROVIDER_API_KEY_FILE: file }))).toBe(
      'production',
    );
  });

  it('refuses key files from a folder the sandbox generated, and accepts them elsewhere', () => {
    const sandboxDir = mkdtempSync(path.join(tmpdir(), 'cardflow-env-sandbox-'));
    ensureSandboxKeys(sandboxDir);
    const ownDir = mkdtempSync(path.join(tmpdir(), 'cardflow-env-own-'));
    writeFileSync(path.join(ownDir, 'merchant-private.pem'), 'not read by the interlock');
    expect(
      problemsOf({
        ...production,
        CARDFLOW_MERCHANT_PRIVATE_KEY_FILE: path.join(sandboxDir, KEY_FILES.merchantPrivate),
        CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: path.join(sandboxDir, KEY_FILES.platformPublic),
      }),
    ).toEqual([
      `CARDFLOW_MERCHANT_PRIVATE_KEY_FILE: CARDFLOW_ENV=production reads a key from a folder the sandbox generated (${path.join(sandboxDir, KEY_FILES.merchantPrivate)})`,
      `CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: CARDFLOW_ENV=production reads a key from a folder the sandbox generated (${path.join(sandboxDir, KEY_FILES.platformPublic)})`,
    ]);
    expect(
      checkEnvironment(
        readInterlock({
          ...production,
          CARDFLOW_MERCHANT_PRIVATE_KEY_FILE: path.join(ownDir, 'merchant-private.pem'),
        }),
      ),
    ).toBe('production');
  });

  it('refuses the dev codec key, inline or in a file', () => {
    expect(problemsOf({ ...production, CARDFLOW_CODEC_KEYS: `k2:${key},dev-0a1b2c3d:${key}` })).toEqual([
      'CARDFLOW_CODEC_KEYS: CARDFLOW_ENV=production holds a dev codec key (id dev-…)',
    ]);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'cardflow-env-codec-')), 'dev-keys.json');
    writeFileSync(file, JSON.stringify({ keys: [{ id: 'dev-0a1b2c3d', key }] }));
    expect(problemsOf({ ...production, CARDFLOW_CODEC_KEYS: undefined, CARDFLOW_CODEC_KEYS_FILE: file })).toEqual([
      'CARDFLOW_CODEC_KEYS_FILE: CARDFLOW_ENV=production holds a dev codec key (id dev-…)',
    ]);
  });

  it('lists every broken rule at once', () => {
    const problems = problemsOf({
      CARDFLOW_ENV: 'production',
      CARDFLOW_PROVIDER_BASE_URL: 'http://localhost:8787',
      CARDFLOW_PROVIDER_API_KEY: 'sandbox_0a1b2c',
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'NODE_ENV',
      'CARDFLOW_PROVIDER_BASE_URL',
      'CARDFLOW_PROVIDER_BASE_URL',
      'CARDFLOW_PROVIDER_API_KEY',
    ]);
  });
});

describe('isLoopbackHost and canonicalHost: every spelling of this machine', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'app.localhost',
    'app.localhost.',
    '127.0.0.1',
    '127.1.2.3',
    '127.0.0.1.',
    '127.1',
    '2130706433',
    '0x7f.1',
    '0x7f000001',
    '0177.0.0.1',
    '::1',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
    '::ffff:127.0.0.1',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '0.0.0.0',
    '0',
    '[::]',
  ])('%s is loopback', (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each([
    'sandbox',
    '10.0.0.1',
    '128.0.0.1',
    '126.255.255.255',
    'localhost.example.com',
    'localhost.example.com.',
    '127.0.0.1.example.com',
    '[::ffff:10.0.0.1]',
    '::2',
    '',
    'a b',
  ])('%j is not', (host) => expect(isLoopbackHost(host)).toBe(false));

  it.each([
    ['Sandbox.Example.', 'sandbox.example'],
    ['[::FFFF:127.0.0.1]', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
  ])('canonicalHost(%s) = %s', (host, canonical) => expect(canonicalHost(host)).toBe(canonical));
});

describe('the interlock cannot be slipped', () => {
  it.each(['production ', ' production', 'production\n', 'Production', 'PRODUCTION', 'prod', 'sandbox\t', 'live'])(
    'CARDFLOW_ENV=%j is refused, named, whatever the rest says',
    (declared) => {
      const [problem] = problemsOf({ ...production, CARDFLOW_ENV: declared });
      expect(problem).toBe(`CARDFLOW_ENV=${JSON.stringify(declared)}: must be exactly sandbox or production`);
    },
  );

  it.each([
    'https://localhost.',
    'https://localhost.:8787',
    'https://[::ffff:127.0.0.1]',
    'https://[::1]:8443',
    'https://0.0.0.0',
    'https://2130706433',
    'https://0x7f.1',
    'https://127.1',
    'https://app.localhost./v1',
    'https://SANDBOX.',
  ])('production refuses the sandbox host %s', (url) => {
    expect(problemsOf({ ...production, CARDFLOW_PROVIDER_BASE_URL: url, CARDFLOW_SANDBOX_HOSTS: 'sandbox' })).toEqual([
      expect.stringMatching(/^CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=production points at a sandbox host/),
    ]);
  });

  it.each(['http://localhost.:8787', 'http://[::ffff:127.0.0.1]:8787', 'http://2130706433:8787', 'http://Sandbox.:1'])(
    'a sandbox may use %s (loopback in any spelling, or a listed host)',
    (url) => {
      const resolved = resolveEnvironment(
        readInterlock({
          CARDFLOW_ENV: 'sandbox',
          CARDFLOW_PROVIDER_BASE_URL: url,
          CARDFLOW_SANDBOX_HOSTS: ' sandbox ',
        }),
      );
      expect(resolved).toMatchObject({ env: 'sandbox', providerIsSandbox: true });
    },
  );

  it.each(['not a url', 'ftp://provider.example.com', 'https://', 'file:///etc/passwd'])(
    'CARDFLOW_PROVIDER_BASE_URL=%j is refused, never read as "no provider"',
    (url) => {
      expect(problemsOf({ CARDFLOW_ENV: 'sandbox', CARDFLOW_PROVIDER_BASE_URL: url })).toEqual([
        'CARDFLOW_PROVIDER_BASE_URL: must be an http(s) URL with a host',
      ]);
    },
  );

  it('an entry point that embeds a sandbox (npm start) refuses production without a provider URL', () => {
    const { CARDFLOW_PROVIDER_BASE_URL: _url, ...noUrl } = production;
    expect(checkEnvironment(readInterlock(noUrl))).toBe('production');
    expect(
      thrownBy(() => checkEnvironment(readInterlock(noUrl), { embedsSandbox: true }), EnvironmentError).problems,
    ).toEqual([
      'CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=production needs the provider URL here; without one this would start its embedded sandbox',
    ]);
    expect(checkEnvironment(readInterlock(production), { embedsSandbox: true })).toBe('production');
    expect(checkEnvironment(readInterlock({}), { embedsSandbox: true })).toBe('sandbox');
  });

  it('says a remote provider is no sandbox, so no command sends it a sandbox call', () => {
    expect(resolveEnvironment(readInterlock(production))).toMatchObject({
      env: 'production',
      providerIsSandbox: false,
    });
    expect(resolveEnvironment(readInterlock({}))).toEqual({ env: 'sandbox', providerIsSandbox: false });
  });
});
