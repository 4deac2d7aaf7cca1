/**
 * The worker's process memory on its metrics endpoint, under the names prom-client gives the
 * other processes (`process_resident_memory_bytes`, `nodejs_heap_size_used_bytes`,
 * `nodejs_heap_size_total_bytes`, `nodejs_external_memory_bytes`), so one query covers every
 * cardflow process. The SDK's Runtime serves the worker's endpoint and has no process metrics of
 * its own: these are gauges sampled every `intervalMs` (and at once), not at scrape time. The
 * heap figures are the main thread's; the workflow threads' heaps count in the resident size.
 */
import type { MetricMeter } from '@temporalio/common';

/**
 * Samples now and every `intervalMs` until the returned function is called; never holds the process
 * open.
 */
export function sampleProcessMemory(meter: MetricMeter, intervalMs: number): () => void {
  const rss = meter.createGauge('process_resident_memory_bytes', 'int', undefined, 'Resident memory size in bytes');
  const heapUsed = meter.createGauge('nodejs_heap_size_used_bytes', 'int', undefined, 'Main thread V8 heap used');
  const heapTotal = meter.createGauge('nodejs_heap_size_total_bytes', 'int', undefined, 'Main thread V8 heap size');
  const external = meter.createGauge('nodejs_external_memory_bytes', 'int', undefined, 'Node external memory');
  const sample = () => {
    const memory = process.memoryUsage();
    rss.set(memory.rss);
    heapUsed.set(memory.heapUsed);
    heapTotal.set(memory.heapTotal);
    external.set(memory.external);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
