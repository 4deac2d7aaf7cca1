/**
 * A real Prometheus (the Debian `prometheus` package) scraping a topology's metrics endpoints and
 * evaluating alert rules, for the cluster tier and anyone trying the topology out. Its
 * configuration is written from the targets given; its data lives in the topology's folder.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../lib/free-port';
import { type ManagedProcess, type ProcessGroup, waitUntil } from './processes';

export interface ScrapeJob {
  /** The job label, e.g. `cardflow-worker`. */
  job: string;
  /** `host:port` of each endpoint (path `/metrics`). */
  targets: readonly string[];
}

export interface RunningPrometheus {
  /** `http://127.0.0.1:<port>`: the HTTP API (`/api/v1/query`, `/api/v1/alerts`, ...). */
  url: string;
  process: ManagedProcess;
}

/** The `prometheus` binary, or an error saying which package brings it. */
export function prometheusBinary(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v prometheus'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('prometheus is not installed: apt-get install prometheus (Debian) brings it and promtool');
  }
}

export async function startPrometheus(
  group: ProcessGroup,
  dir: string,
  opts: { jobs: readonly ScrapeJob[]; ruleFiles?: readonly string[]; intervalSeconds?: number },
): Promise<RunningPrometheus> {
  const interval = `${opts.intervalSeconds ?? 15}s`;
  // JSON is YAML: the configuration needs no YAML writer.
  const config = {
    global: { scrape_interval: interval, evaluation_interval: interval, scrape_timeout: interval },
    rule_files: opts.ruleFiles ?? [],
    scrape_configs: opts.jobs.map((job) => ({ job_name: job.job, static_configs: [{ targets: job.targets }] })),
  };
  const configFile = join(dir, 'prometheus.yml');
  writeFileSync(configFile, JSON.stringify(config, null, 1));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const p = group.spawn({
    name: 'prometheus',
    command: prometheusBinary(),
    args: [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, 'prometheus-data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    cwd: dir,
  });
  await waitUntil('Prometheus ready', async () => (await fetch(`${url}/-/ready`)).ok, {
    timeoutMs: 60_000,
    process: p,
  });
  return { url, process: p };
}
