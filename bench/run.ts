import '../runtime/production-mode.ts';
import os from 'node:os';
import { analyticsBenchmark } from './analytics.ts';
import { startBenchEnvironment } from './bench-environment.ts';
import { type Benchmark, formatReport } from './benchmark.ts';
import { billingTick } from './billing-tick.ts';
import { classifierThroughput } from './classifier.ts';
import { deliveryThroughput } from './deliveries.ts';
import { gatewayComparison } from './gateway-comparison.ts';
import { startStealMeter } from './cpu-steal.ts';
import { ingestionThroughput } from './ingestion.ts';
import { ingestionScaling } from './ingestion-scaling.ts';
import { liveFanOut } from './live-fan-out.ts';
import { matchingThroughput } from './matching.ts';
import { mentionsListAndExport } from './mentions-list-export.ts';
import { partitionsBenchmark } from './partitions.ts';
import { restLevers } from './rest-levers.ts';
import { restPath } from './rest-path.ts';
import { restScaling } from './rest-scaling.ts';

/** Every benchmark of `npm run bench`, in the order they run; add one module per benchmark here. */
const benchmarks: Benchmark[] = [restPath, restLevers, gatewayComparison, matchingThroughput, classifierThroughput, ingestionThroughput, ingestionScaling, restScaling, billingTick, deliveryThroughput, mentionsListAndExport, analyticsBenchmark, partitionsBenchmark, liveFanOut];

// `npm run bench -- rest tick` runs only the benchmarks whose titles (a name up to its colon, if any) contain one of the words;
// a word that is a whole title picks that benchmark alone (`ingestion`, not also `ingestion scale-out`).
const wanted = process.argv.slice(2).map((word) => word.toLowerCase());
const titleOf = (benchmark: Benchmark) => benchmark.name.split(':')[0].toLowerCase();
const picks = (word: string, benchmark: Benchmark) =>
  benchmarks.some((any) => titleOf(any) === word) ? titleOf(benchmark) === word : titleOf(benchmark).includes(word);
const selected = wanted.length ? benchmarks.filter((benchmark) => wanted.some((word) => picks(word, benchmark))) : benchmarks;
// A word that picks nothing is a typo: said before a database starts, with the titles to pick from, rather than a run of nothing.
const unmatched = wanted.filter((word) => !benchmarks.some((benchmark) => picks(word, benchmark)));
if (unmatched.length) {
  console.error(`npm run bench: no benchmark title contains ${unmatched.map((word) => `"${word}"`).join(', ')}; the titles are:\n${benchmarks.map((benchmark) => `  ${benchmark.name}`).join('\n')}`);
  process.exit(2);
}

// Numbers from a busy machine mean little; say how busy it was.
const [loadAverage] = os.loadavg();
console.log(`Node ${process.version}, ${os.cpus().length} cores, load average ${loadAverage.toFixed(1)} when the run began\n`);

const stealShare = startStealMeter();
const environment = await startBenchEnvironment();
let failed = false;
try {
  for (const benchmark of selected) {
    process.stderr.write(`running ${benchmark.name}…\n`);
    try {
      console.log(formatReport(benchmark.name, await benchmark.run(environment)) + '\n');
    } catch (error) {
      failed = true;
      console.error(`${benchmark.name} failed:`, error);
    }
  }
} finally {
  await environment.stop();
}
const steal = stealShare();
if (steal !== null) console.log(`CPU steal during the run: ${(100 * steal).toFixed(0)}% of the machine's CPU time went to other guests of its host`);
process.exit(failed ? 1 : 0);
