import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { connect } from '../runtime/database.ts';
import type { BenchEnvironment } from './bench-environment.ts';
import type { Benchmark, BenchReport } from './benchmark.ts';
import { seedIngestion } from './ingestion.ts';

/** Posts each worker process ingests, timed. */
const postsPerWorker = 4_000;
const workerScript = fileURLToPath(new URL('./ingestion-worker-process.ts', import.meta.url));

interface WorkerResult {
  stored: number;
  seconds: number;
}

/** Starts a worker process on its own range of posts; resolves when it has warmed up. */
async function startWorker(url: string, first: number, warmUpFirst: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', workerScript, url, String(first), String(postsPerWorker), String(warmUpFirst)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let buffered = '';
  const arrived = new EventTarget();
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      lines.push(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      arrived.dispatchEvent(new Event('line'));
    }
  });
  const nextLine = async () => {
    while (lines.length === 0) {
      if (child.exitCode !== null) throw new Error(`ingestion worker exited with ${child.exitCode}`);
      await Promise.race([once(arrived, 'line'), once(child, 'exit')]);
    }
    return lines.shift()!;
  };
  if ((await nextLine()) !== 'ready') throw new Error('ingestion worker did not get ready');
  return {
    async run(): Promise<WorkerResult> {
      child.stdin.write('go\n');
      const result = JSON.parse(await nextLine()) as WorkerResult;
      child.stdin.end();
      await once(child, 'exit');
      return result;
    },
  };
}

/** `count` worker processes on one fresh database, started together: stored mentions a second of wall time, all of them. */
async function measure(environment: BenchEnvironment, count: number): Promise<{ stored: number; seconds: number }> {
  const url = await environment.createDatabase();
  const sql = connect(url, { max: 2 });
  try {
    await seedIngestion(sql);
  } finally {
    await sql.end();
  }
  const workers = [];
  for (let i = 0; i < count; i++) workers.push(await startWorker(url, i * postsPerWorker, 1_000_000 + i * postsPerWorker));
  const started = performance.now();
  const results = await Promise.all(workers.map((worker) => worker.run()));
  const seconds = (performance.now() - started) / 1000;
  return { stored: results.reduce((total, result) => total + result.stored, 0), seconds };
}

/**
 * Issue 18 aim 7: ingestion with one and with two worker processes on a
 * shared PostgreSQL, each on posts of its own, all of the same workspaces
 * (so they contend for the same wallet and keyword locks, as a real
 * deployment's workers do), and the scaling factor.
 */
async function runScalingBenchmark(environment: BenchEnvironment): Promise<BenchReport> {
  const one = await measure(environment, 1);
  const two = await measure(environment, 2);
  const rate = (run: { stored: number; seconds: number }) => run.stored / run.seconds;
  return {
    description:
      `Each worker process ingests ${postsPerWorker.toLocaleString('en')} posts of its own (after 500 untimed) into the same 20 funded workspaces and 100 keywords, ` +
      `as ingestPosts runs in a poll job; the processes start together on a fresh database; wall time from the start signal until the last one finishes. ` +
      `PostgreSQL runs on the same machine, so it shares the cores with the workers.`,
    columns: ['processes', 'stored mentions', 'seconds', 'mentions/s', 'scaling'],
    rows: [
      { label: 'one worker', values: [1, one.stored, one.seconds, rate(one), '1.00×'] },
      { label: 'two workers', values: [2, two.stored, two.seconds, rate(two), `${(rate(two) / rate(one)).toFixed(2)}×`] },
    ],
  };
}

export const ingestionScaling: Benchmark = { name: 'Ingestion scale-out: one and two worker processes', run: runScalingBenchmark };
