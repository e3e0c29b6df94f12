import { execFile } from 'node:child_process';
import path from 'node:path';

const autocannonBin = path.resolve(import.meta.dirname, '../node_modules/.bin/autocannon');

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  /** A POST with this body (a GET without one). */
  body?: string;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses that were not 2xx, plus connection errors and timeouts: any of them spoils the run. */
  failures: number;
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/**
 * Runs autocannon in a child process, so the load generator does not share
 * the event loop (or the core) of the server it measures.
 */
export function generateLoad(options: LoadOptions): Promise<LoadResult> {
  const args = ['--json', '--no-progress', '-c', String(options.connections), '-d', String(options.seconds)];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (options.body !== undefined) args.push('-m', 'POST', '-b', options.body);
  args.push(options.url);
  return new Promise((resolve, reject) => {
    execFile(autocannonBin, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`autocannon failed: ${stderr || error.message}`));
      const result = JSON.parse(stdout) as AutocannonJson;
      resolve({
        requestsPerSecond: result.requests.average,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        requests: result.requests.total,
        failures: result.non2xx + result.errors + result.timeouts,
      });
    });
  });
}

/** The turns of one target as one figure: means of the rates and latencies, totals of the counts. */
export function meanOfLoads(samples: LoadResult[]): LoadResult {
  const mean = (pick: (sample: LoadResult) => number) => samples.reduce((sum, sample) => sum + pick(sample), 0) / samples.length;
  return {
    requestsPerSecond: mean((sample) => sample.requestsPerSecond),
    p50Ms: mean((sample) => sample.p50Ms),
    p99Ms: mean((sample) => sample.p99Ms),
    requests: samples.reduce((sum, sample) => sum + sample.requests, 0),
    failures: samples.reduce((sum, sample) => sum + sample.failures, 0),
  };
}

/** Load generators run at once on parts of one deployment as one figure: rates and counts summed, latencies weighted by each one's requests. */
export function combinedLoad(parts: LoadResult[]): LoadResult {
  const requests = parts.reduce((sum, part) => sum + part.requests, 0);
  const weighted = (pick: (part: LoadResult) => number) => parts.reduce((sum, part) => sum + pick(part) * part.requests, 0) / requests;
  return {
    requestsPerSecond: parts.reduce((sum, part) => sum + part.requestsPerSecond, 0),
    p50Ms: weighted((part) => part.p50Ms),
    p99Ms: weighted((part) => part.p99Ms),
    requests,
    failures: parts.reduce((sum, part) => sum + part.failures, 0),
  };
}
