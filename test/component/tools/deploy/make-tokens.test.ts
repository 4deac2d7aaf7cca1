/**
 * tools/scripts/make-tokens.sh, the documented step that makes the Temporal cluster's signing keys,
 * its JWKS document and one token per caller (docs/operations.md, "Making tokens, expiry and
 * rotation"), read back with Node's crypto: each token verifies against the JWKS key its header
 * names, carries its caller's role and expiry; a renewal keeps the key; a rotation leaves both keys
 * in the JWKS (tokens of either verify) and signs with the new one; retiring leaves the new one
 * only.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createPublicKey, createVerify, type JsonWebKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const script = path.join(__dirname, '../../../../tools/scripts/make-tokens.sh');
let dir: string;
beforeEach(() => {
  dir = path.join(mkdtempSync(path.join(tmpdir(), 'cardflow-tokens-')), 'temporal-auth');
});
afterEach(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

const makeTokens = (...args: string[]) =>
  execFileSync('bash', [script, dir, ...args], {
    stdio: 'pipe',
    env: { PATH: process.env.PATH ?? '', TEMPORAL_NAMESPACE: 'cardflow', CARDFLOW_TOKEN_DAYS: '30' },
  });
const jwks = () => (JSON.parse(readFileSync(path.join(dir, 'jwks.json'), 'utf8')) as { keys: JsonWebKey[] }).keys;
const tokenOf = (caller: string) => readFileSync(path.join(dir, `${caller}.token`), 'utf8').trim();

interface Decoded {
  kid: string;
  sub: string;
  permissions: string[];
  iat: number;
  exp: number;
}

/** The token's header and payload, after checking its RS256 signature by the JWKS key it names. */
function verified(token: string, keys: JsonWebKey[]): Decoded {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const { alg, kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string; kid: string };
  expect(alg).toBe('RS256');
  const jwk = keys.find((k) => k.kid === kid);
  if (!jwk) throw new Error(`no key ${kid} in the JWKS`);
  const ok = createVerify('RSA-SHA256')
    .update(`${header}.${payload}`)
    .verify(createPublicKey({ key: jwk, format: 'jwk' }), Buffer.from(signature, 'base64url'));
  if (!ok) throw new Error(`the signature does not verify with ${kid}`);
  return { kid, ...(JSON.parse(Buffer.from(payload, 'base64url').toString()) as Omit<Decoded, 'kid'>) };
}

it('makes a key, its JWKS and one token per caller, each with its role and expiry', () => {
  makeTokens();
  const keys = jwks();
  expect(keys).toHaveLength(1);
  expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
  const roles = Object.fromEntries(
    ['worker', 'webhooks', 'backend', 'operator', 'reader', 'ui', 'setup'].map((caller) => {
      const token = verified(tokenOf(caller), keys);
      expect(token.sub).toBe(`cardflow-${caller}`);
      expect(token.exp - token.iat).toBe(30 * 86_400);
      return [caller, token.permissions];
    }),
  );
  expect(roles).toEqual({
    worker: ['cardflow:write'],
    webhooks: ['cardflow:write'],
    backend: ['cardflow:backend'],
    operator: ['cardflow:operator'],
    reader: ['cardflow:read'],
    ui: ['temporal-system:read'],
    setup: ['temporal-system:admin'],
  });
  // The public document is readable by the server's user; the private keys by their owner alone.
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  const kid = readFileSync(path.join(dir, 'current-kid'), 'utf8').trim();
  expect(statSync(path.join(dir, 'keys', `${kid}.pem`)).mode & 0o777).toBe(0o600);
});

it('renews tokens under the same key; a rotation keeps both keys in the JWKS until the old one is retired', () => {
  makeTokens();
  const first = verified(tokenOf('backend'), jwks());
  const firstToken = tokenOf('backend');

  makeTokens();
  expect(jwks().map((k) => k.kid)).toEqual([first.kid]);
  expect(verified(tokenOf('backend'), jwks()).kid).toBe(first.kid);

  makeTokens('--rotate');
  const during = jwks();
  expect(during.map((k) => k.kid)).toHaveLength(2);
  const rotated = verified(tokenOf('backend'), during);
  expect(rotated.kid).not.toBe(first.kid);
  // A caller not restarted yet still holds a token of the old key: it verifies during the rotation.
  expect(verified(firstToken, during).kid).toBe(first.kid);

  makeTokens('--retire-old');
  const after = jwks();
  expect(after.map((k) => k.kid)).toEqual([rotated.kid]);
  expect(() => verified(firstToken, after)).toThrow(`no key ${first.kid} in the JWKS`);
  expect(verified(tokenOf('backend'), after).kid).toBe(rotated.kid);
});

it('refuses a bad expiry, and never makes a new key beside others when current-kid is lost', () => {
  const bad = spawnSync('bash', [script, dir], { env: { PATH: process.env.PATH ?? '', CARDFLOW_TOKEN_DAYS: '0' } });
  expect(bad.status).toBe(64);
  expect(bad.stderr.toString()).toMatch(/CARDFLOW_TOKEN_DAYS must be a whole number of days/);

  makeTokens();
  rmSync(path.join(dir, 'current-kid'));
  const lost = spawnSync('bash', [script, dir], { env: { PATH: process.env.PATH ?? '' } });
  expect(lost.status).toBe(1);
  expect(lost.stderr.toString()).toMatch(/current-kid names no key/);
});
