/**
 * tools/scripts/make-certs.sh, the documented step that makes the Temporal frontend's certificates
 * (docs/operations.md, "Temporal mTLS"), read back with Node's X.509 parser: the server's names
 * and usages, one client certificate per kind, all signed by the CA; a second run renews them
 * under the same CA (the rotation procedure), and a CA without its key is never replaced.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const script = path.join(__dirname, '../../../../tools/scripts/make-certs.sh');
const KINDS = ['worker', 'webhooks', 'client', 'ui', 'cli'];
let dir: string;
beforeEach(() => {
  dir = path.join(mkdtempSync(path.join(tmpdir(), 'cardflow-certs-')), 'temporal-tls');
});
afterEach(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

const makeCerts = (...names: string[]) => execFileSync('bash', [script, dir, ...names], { stdio: 'pipe' });
const cert = (name: string) => new X509Certificate(readFileSync(path.join(dir, `${name}.pem`)));
/** The extended key usages as openssl prints them; Node's parser exposes only the SANs. */
const usages = (name: string) =>
  execFileSync('openssl', ['x509', '-in', path.join(dir, `${name}.pem`), '-noout', '-ext', 'extendedKeyUsage'], {
    encoding: 'utf8',
  });

it('makes a CA, a server certificate for every name the stack uses, and one client certificate per kind', () => {
  makeCerts('temporal.internal', '10.1.2.3');
  const ca = cert('ca');
  expect(ca.ca).toBe(true);

  const server = cert('server');
  expect(server.verify(ca.publicKey)).toBe(true);
  expect(server.ca).toBe(false);
  expect(server.subjectAltName?.split(', ').sort()).toEqual(
    [
      'DNS:temporal',
      'DNS:haproxy',
      'DNS:localhost',
      'IP Address:127.0.0.1',
      'DNS:temporal.internal',
      'IP Address:10.1.2.3',
    ].sort(),
  );
  expect(usages('server')).toMatch(/TLS Web Server Authentication, TLS Web Client Authentication/);

  for (const kind of KINDS) {
    const client = cert(kind);
    expect({ kind, signed: client.verify(ca.publicKey), subject: client.subject }).toEqual({
      kind,
      signed: true,
      subject: `O=cardflow\nCN=cardflow-${kind}`,
    });
    expect(usages(kind)).toMatch(/TLS Web Client Authentication/);
    expect(usages(kind)).not.toMatch(/Server/);
  }
  // Readable by the containers' users inside a folder only its owner enters; the CA key by no one
  // else.
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(statSync(path.join(dir, 'worker-key.pem')).mode & 0o777).toBe(0o644);
  expect(statSync(path.join(dir, 'ca-key.pem')).mode & 0o777).toBe(0o600);
});

it('a second run renews every certificate under the same CA', () => {
  makeCerts();
  const ca = readFileSync(path.join(dir, 'ca.pem'), 'utf8');
  const before = Object.fromEntries(['server', ...KINDS].map((n) => [n, cert(n).serialNumber]));
  makeCerts();
  expect(readFileSync(path.join(dir, 'ca.pem'), 'utf8')).toBe(ca);
  for (const [name, serial] of Object.entries(before)) {
    expect({
      name,
      renewed: cert(name).serialNumber !== serial,
      signed: cert(name).verify(cert('ca').publicKey),
    }).toEqual({ name, renewed: true, signed: true });
  }
});

it('refuses to replace a CA whose key is not there, naming it', () => {
  makeCerts();
  const ca = readFileSync(path.join(dir, 'ca.pem'), 'utf8');
  renameSync(path.join(dir, 'ca-key.pem'), path.join(path.dirname(dir), 'ca-key.offline.pem'));
  const run = spawnSync('bash', [script, dir], { encoding: 'utf8' });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('has no ca-key.pem beside it');
  expect(readFileSync(path.join(dir, 'ca.pem'), 'utf8')).toBe(ca);
});
