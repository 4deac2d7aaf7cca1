/**
 * The secret files a rendered pod mounts, written to a folder with contents each reader accepts,
 * so a test can hand a rendered environment to the process's own configuration reader: every
 * `_FILE` path under the pod's secrets mount is moved under that folder, nothing else changes.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateKeyBase64 } from '../../../platform/codec/keys';
import type { PodSpec } from './chart';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });

/** What each secret file of the chart holds, by its file name (tools/deploy/secrets/README.md). */
const CONTENTS: Record<string, () => string> = {
  codec_keys: () => `k2026a:${generateKeyBase64()}`,
  codec_server_token: () => hex(32),
  provider_api_key: () => `live_${hex(16)}`,
  merchant_private_key: () => keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  platform_public_key: () => keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  database_url: () => `postgres://cardflow:${hex(32)}@postgresql:5432/cardflow`,
  database_admin_url: () => `postgres://temporal:${hex(32)}@postgresql:5432/postgres`,
  notify_secret: () => hex(32),
  // Read as bytes by @temporalio/envconfig, parsed only when connecting.
  'ca.pem': () => `-----BEGIN CERTIFICATE-----\nca ${hex(8)}\n-----END CERTIFICATE-----\n`,
  'client.pem': () => `-----BEGIN CERTIFICATE-----\nclient ${hex(8)}\n-----END CERTIFICATE-----\n`,
  'client-key.pem': () => `-----BEGIN PRIVATE KEY-----\nkey ${hex(8)}\n-----END PRIVATE KEY-----\n`,
  'temporal-token': () => `token-${hex(16)}`,
};

export interface MaterializedSecrets {
  /** The container's environment with every path under the secrets mount moved to `dir`. */
  env: Record<string, string>;
  /** Each file's contents, by its path under the mount (`temporal-tls/ca.pem`). */
  files: Record<string, string>;
  dir: string;
}

const written: string[] = [];

/** Removes every folder materializeSecrets wrote (a test file's afterAll). */
export function removeMaterializedSecrets(): void {
  for (const dir of written.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Writes the files of the pod's `secrets` volume and moves the paths of `env` that point into
 * its mount (`mountPath`) there. A path into the mount that the volume does not hold stays a path
 * to nothing, so the reader fails on it as the process would.
 */
export function materializeSecrets(spec: PodSpec, mountPath: string, env: Record<string, string>): MaterializedSecrets {
  const dir = mkdtempSync(path.join(tmpdir(), 'cardflow-chart-secrets-'));
  written.push(dir);
  const files: Record<string, string> = {};
  const volume = spec.volumes?.find((v) => v.name === 'secrets');
  for (const source of volume?.projected?.sources ?? []) {
    for (const item of source.secret?.items ?? []) {
      const make = CONTENTS[path.basename(item.path)];
      if (!make) throw new Error(`no test contents for the secret file ${item.path}`);
      const contents = make();
      files[item.path] = contents;
      mkdirSync(path.dirname(path.join(dir, item.path)), { recursive: true });
      writeFileSync(path.join(dir, item.path), contents);
    }
  }
  const moved = Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      value.startsWith(`${mountPath}/`) ? path.join(dir, value.slice(mountPath.length + 1)) : value,
    ]),
  );
  return { env: moved, files, dir };
}
