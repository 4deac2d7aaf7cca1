/**
 * A throwaway PostgreSQL for the cluster on one machine: Debian's server binaries, a fresh data
 * directory under the topology's folder, loopback only, on a free port, with a password (the
 * Temporal server and cardflow's stores connect over TCP as a real deployment would). PostgreSQL
 * refuses to run as root, so when this process is root the database runs as the `postgres` user
 * (created by Debian's package) and owns its directory.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../lib/free-port';
import { type ManagedProcess, type ProcessGroup, waitUntil } from './processes';

export interface RunningPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  /** A file holding the password only (what tools/deploy/temporal-schema.sh reads). */
  passwordFile: string;
  /** `postgres://user:password@host:port/<database>`. */
  url(database: string): string;
  process(): ManagedProcess;
  /** Fast shutdown, then start again on the same port and data (an operator's restart). */
  restart(): Promise<void>;
  /**
   * A physical backup of the whole server into `into` (a folder that must not exist), taken while
   * it serves: `pg_basebackup` with the WAL written meanwhile streamed in, so the three databases
   * (Temporal's, its visibility store, cardflow's) are restored as of one instant.
   */
  backup(into: string): Promise<BackupTaken>;
  /**
   * Destroys the server's data (fast shutdown, data directory deleted), then restores `from` into
   * a fresh data directory and starts the server on the same port: the recovery replays the
   * backup's WAL up to the instant the backup ended.
   */
  restore(from: string): Promise<void>;
}

export interface BackupTaken {
  bytes: number;
  ms: number;
}

/** Bytes of the files under `dir`. */
function sizeOf(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += sizeOf(path);
    else if (entry.isFile()) bytes += statSync(path).size;
  }
  return bytes;
}

/** The folder of Debian's PostgreSQL server binaries (newest major installed), or PG_BIN_DIR. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0)
    throw new Error('PostgreSQL server binaries not found: apt-get install postgresql (or set PG_BIN_DIR)');
  return join(root, majors[0]!, 'bin');
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function userIds(user: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/**
 * True once the server answers a query (it accepts connections before it has finished starting).
 */
async function answering(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startPostgres(group: ProcessGroup, dir: string): Promise<RunningPostgres> {
  const bin = postgresBinDir();
  const host = '127.0.0.1';
  const port = await freePort(host);
  const user = 'cardflow';
  const password = 'cardflow-local';
  const runAs = isRoot() ? 'postgres' : undefined;
  const dataDir = join(dir, 'data');
  const socketDir = join(dir, 'socket');
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(socketDir, { recursive: true });
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, password, { mode: 0o644 });
  if (runAs) {
    const { uid, gid } = userIds(runAs);
    for (const d of [dir, dataDir, socketDir]) chownSync(d, uid, gid);
    // The topology's folder (a root-only temp dir) must let the database user through to its own.
    chmodSync(dirname(dir), 0o711);
    chownSync(passwordFile, uid, gid);
  }
  chmodSync(dataDir, 0o700);
  execFileSync(
    runAs ? 'runuser' : join(bin, 'initdb'),
    [
      ...(runAs ? ['-u', runAs, '--', join(bin, 'initdb')] : []),
      '-D',
      dataDir,
      '-U',
      user,
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--no-sync',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = (database: string) => `postgres://${user}:${encodeURIComponent(password)}@${host}:${port}/${database}`;
  let current: ManagedProcess;
  const launch = async () => {
    current = group.spawn({
      name: 'postgresql',
      command: join(bin, 'postgres'),
      args: [
        '-D',
        dataDir,
        '-h',
        host,
        '-p',
        String(port),
        '-k',
        socketDir,
        // Five Temporal services (pools of up to 20) and the cardflow stores share this server.
        '-c',
        'max_connections=300',
        // A throwaway database: durability across a machine crash is not what the cluster tests.
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ],
      ...(runAs ? { user: runAs } : {}),
    });
    await waitUntil(`PostgreSQL answering on ${host}:${port}`, () => answering(url('postgres')), { process: current });
  };
  await launch();
  return {
    host,
    port,
    user,
    password,
    passwordFile,
    url,
    process: () => current,
    async restart() {
      // SIGINT is PostgreSQL's fast shutdown: open connections are cut, as in a failover.
      await current.stop('SIGINT');
      await launch();
    },
    async backup(into) {
      const started = Date.now();
      // As a client over TCP, the way a backup host would take it (initdb's pg_hba lets the
      // superuser make replication connections from loopback). `-c fast`: checkpoint at once.
      execFileSync(
        join(bin, 'pg_basebackup'),
        ['-h', host, '-p', String(port), '-U', user, '-D', into, '-Fp', '-X', 'stream', '-c', 'fast', '--no-sync'],
        { env: { ...process.env, PGPASSWORD: password }, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      return { bytes: sizeOf(into), ms: Date.now() - started };
    },
    async restore(from) {
      await current.stop('SIGINT');
      rmSync(dataDir, { recursive: true, force: true });
      cpSync(from, dataDir, { recursive: true });
      if (runAs) {
        const { uid, gid } = userIds(runAs);
        execFileSync('chown', ['-R', `${uid}:${gid}`, dataDir]);
      }
      chmodSync(dataDir, 0o700);
      await launch();
    },
  };
}
