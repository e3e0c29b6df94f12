import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSchema, isObjectType } from 'graphql';
import { buildOpenApiDocument } from '../../rest-facade/openapi.ts';
import { routeTables } from '../../rest-facade/route-table.ts';
import type { FuzzFigures } from '../fuzz/fuzz-run.ts';
import type { LoadFigures } from '../load/load-run.ts';

/**
 * `npm run reliability [-- --reduced]`: runs the hardening checks of issue
 * 17 (crash and rerun, PostgreSQL outages, fuzzing every surface, the
 * isolation audit, load) and writes their figures to RELIABILITY.md.
 * `--reduced` runs the fuzzers at their `npm test` size, the load for a
 * minute with 10 workspaces and no stop check, and says so in the file.
 * The whole run takes hours on two cores, so it can be made in parts:
 * `--only fuzz,load` runs those sections and keeps the others' text from
 * the file as it was; every section says when and at what size it ran.
 */
const reduced = process.argv.includes('--reduced');
const onlyAt = process.argv.indexOf('--only');
/** `--only fuzz,load` runs those sections alone; the others say they were not run. */
const sections = new Set(onlyAt >= 0 ? process.argv[onlyAt + 1].split(',') : ['faults', 'fuzz', 'isolation', 'load']);
const skipped = { tests: [] as TestOutcome[], output: '', seconds: 0 };
const repoRoot = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(os.tmpdir(), 'earshot-reliability-'));
const started = Date.now();
const reliabilityFile = path.join(repoRoot, 'RELIABILITY.md');
const earlier = existsSync(reliabilityFile) ? readFileSync(reliabilityFile, 'utf8') : '';
const runStamps = new Map<string, string>();

/**
 * Runs a section and notes when, how long and at what machine load: fault
 * runs wait for recoveries with deadlines, and on a machine busy with other
 * work they time out, which the file should let a reader see.
 */
function timedSection<T>(key: string, run: () => T): T {
  const began = Date.now();
  const loadBefore = os.loadavg()[1].toFixed(1);
  const result = run();
  const minutes = Math.round((Date.now() - began) / 60_000);
  runStamps.set(
    key,
    `_Run by \`npm run reliability${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\` on ${new Date(began).toISOString().slice(0, 16).replace('T', ' ')} UTC` +
      `${reduced ? ' at its reduced size' : ' at full size'}, ${minutes} minutes, on ${os.cpus().length} cores with a 5-minute load average of ${loadBefore} at the start and ${os.loadavg()[1].toFixed(1)} at the end._`,
  );
  return result;
}

/** A section of the file as the earlier run wrote it, from its heading to the next one. */
function earlierSection(title: string): string | undefined {
  const start = earlier.indexOf(`\n## ${title}\n`);
  if (start < 0) return undefined;
  const end = earlier.indexOf('\n## ', start + 1);
  return earlier.slice(start + 1, end < 0 ? undefined : end).trimEnd();
}

interface TestOutcome {
  file: string;
  title: string;
  status: string;
}

/** Runs test files one after another and returns each test's outcome and what the files printed. */
function runTests(files: string[], env: Record<string, string> = {}): { tests: TestOutcome[]; output: string; seconds: number } {
  const outputFile = path.join(work, `results-${Date.now()}.json`);
  const began = Date.now();
  const run = spawnSync('npx', ['vitest', 'run', '--no-file-parallelism', '--reporter=default', '--reporter=json', `--outputFile.json=${outputFile}`, ...files], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  process.stdout.write(run.stdout.slice(-4_000));
  let tests: TestOutcome[] = [];
  try {
    const results = JSON.parse(readFileSync(outputFile, 'utf8')) as {
      testResults: { name: string; assertionResults: { fullName: string; status: string; failureMessages?: string[] }[] }[];
    };
    // The full name keeps the describe's words (a crash run's scale and seed, to replay it); a failure keeps its first line.
    tests = results.testResults.flatMap((file) =>
      file.assertionResults.map((test) => ({
        file: path.relative(repoRoot, file.name),
        title: test.fullName,
        status: test.status === 'failed' && test.failureMessages?.length ? `failed: ${test.failureMessages[0].split('\n')[0].replaceAll('|', '\\|').slice(0, 200)}` : test.status,
      })),
    );
  } catch {
    tests = files.map((file) => ({ file, title: 'the file did not run', status: 'failed' }));
  }
  return { tests, output: run.stdout + run.stderr, seconds: Math.round((Date.now() - began) / 1000) };
}

const passed = (tests: TestOutcome[]) => tests.filter((test) => test.status === 'passed').length;
const testList = (tests: TestOutcome[]) => tests.map((test) => `| ${test.file} | ${test.title} | ${test.status} |`).join('\n');

console.log('Crash and rerun, PostgreSQL outages');
const faults = !sections.has('faults')
  ? skipped
  : timedSection('faults', () => runTests(['test/crash-recovery.test.ts', 'test/crash-rerun.test.ts', 'test/database-outage.test.ts', ...(reduced ? [] : ['test/shutdown.test.ts'])], {
      EARSHOT_STOP_ROUNDS: '100',
      EARSHOT_CRASH_SCALE: reduced ? '1' : '10',
    }));

console.log('Fuzzing');
const fuzzScale = reduced ? '1' : '30';
const fuzzDir = path.join(work, 'fuzz');
const fuzzSeed = String(Math.floor(Math.random() * 2 ** 31));
const fuzz = !sections.has('fuzz')
  ? skipped
  : timedSection('fuzz', () =>
      runTests(['test/openapi-bad-input.test.ts', 'test/graphql-fuzz.test.ts', 'test/mcp-fuzz.test.ts'], {
        EARSHOT_FUZZ_SCALE: fuzzScale,
        EARSHOT_FUZZ_SEED: fuzzSeed,
        EARSHOT_FUZZ_FIGURES_DIR: fuzzDir,
      }),
    );
let surfaces: FuzzFigures[] = [];
try {
  surfaces = readdirSync(fuzzDir).map((name) => JSON.parse(readFileSync(path.join(fuzzDir, name), 'utf8')));
} catch {
  surfaces = [];
}

console.log('Isolation audit');
const isolation = !sections.has('isolation') ? skipped : timedSection('isolation', () => runTests(['test/isolation-audit.test.ts']));
const probes = /isolation audit: (\d+) probes answered (\{[^\n]*\})/.exec(isolation.output);
const openapi = buildOpenApiDocument(routeTables) as unknown as { paths: Record<string, Record<string, unknown>> };
const operations = Object.values(openapi.paths).reduce((sum, methods) => sum + Object.keys(methods).filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method)).length, 0);
const supergraph = buildSchema(readFileSync(path.join(repoRoot, 'schema/supergraph.graphql'), 'utf8'), { assumeValidSDL: true });
const rootFields = Object.fromEntries(
  (['Query', 'Mutation', 'Subscription'] as const).map((name) => {
    const type = supergraph.getType(name);
    return [name, type && isObjectType(type) ? Object.keys(type.getFields()).length : 0];
  }),
);

console.log('Load');
const loadSeconds = reduced ? 60 : 600;
const loadWorkspaces = reduced ? 10 : 100;
const loadFile = path.join(work, 'load.json');
const load = !sections.has('load')
  ? skipped
  : timedSection('load', () =>
      runTests(['test/load.test.ts'], {
        EARSHOT_LOAD_SECONDS: String(loadSeconds),
        EARSHOT_LOAD_WORKSPACES: String(loadWorkspaces),
        EARSHOT_LOAD_LIMIT: '600',
        EARSHOT_LOAD_SEND: '660',
        EARSHOT_LOAD_HEAP_CHECK: '1',
        EARSHOT_LOAD_FIGURES_FILE: loadFile,
      }),
    );
let loadFigures: (LoadFigures & { report: string }) | undefined;
try {
  loadFigures = JSON.parse(readFileSync(loadFile, 'utf8'));
} catch {
  loadFigures = undefined;
}
rmSync(work, { recursive: true, force: true });

const fuzzCases = surfaces.reduce((sum, surface) => sum + surface.cases, 0);
const fuzzFailures = surfaces.reduce((sum, surface) => sum + surface.failures.length, 0);
const reducedNote = {
  faults: 'the crash-and-rerun run at its `npm test` size (not 10 times it), the stop check (100 SIGTERMs under load, `test/shutdown.test.ts`) left out',
  fuzz: 'the fuzzers at their `npm test` size (not 30 times it)',
  isolation: '',
  load: `the load for ${loadSeconds} s with ${loadWorkspaces} workspaces (not 600 s with 100)`,
};

/** A section as this run found it, or as the file had it when the section was not run this time. */
function section(key: keyof typeof reducedNote, title: string, body: () => string): string {
  if (!sections.has(key)) return earlierSection(title) ?? `## ${title}\n\n**Not run yet.** \`npm run reliability -- --only ${key}\` runs it.`;
  const size = reduced && reducedNote[key] ? `\n\n**Reduced**: ${reducedNote[key]}; \`npm run reliability\` runs the full size.` : '';
  return `## ${title}\n\n${runStamps.get(key)}${size}\n\n${body().trim()}`;
}

const document = `# Reliability

Written by \`npm run reliability\`, section by section (\`-- --only faults,fuzz,isolation,load\` reruns some and keeps the others); each section says when and at what size it ran. Do not edit by hand.

What users trust a mention tracker for is that it never loses a mention, never charges twice and never shows one workspace another's data (issue 17). Each section is a test run; a figure is what that run counted.

${section('faults', 'Crash and rerun, PostgreSQL outages, stopping', () => `
${passed(faults.tests)} of ${faults.tests.length} fault runs passed their invariant checks (${faults.seconds} s). Each kills or freezes something for real (SIGKILL of a worker in the middle of its jobs, PostgreSQL killed, frozen with SIGSTOP or gone away, SIGTERM under load) and then checks that nothing was lost, doubled, mischarged or left stuck:

| File | Fault and invariants | Result |
|---|---|---|
${testList(faults.tests)}`)}

${section('fuzz', 'Fuzzing every surface', () => `
${fuzzCases} generated cases at ${fuzzScale}× the \`npm test\` size (seed ${fuzzSeed}), ${fuzzFailures} failures; ${passed(fuzz.tests)} of ${fuzz.tests.length} fuzz tests passed (${fuzz.seconds} s). A failure is a 5xx, a refusal outside its surface's envelope or status list, an uncoded GraphQL error, an MCP internal error, or a change to the other workspace's rows.

| Surface | Cases | Answers | Sent again after a 503 | Failures |
|---|---:|---|---:|---:|
${surfaces.map((surface) => `| ${surface.surface} | ${surface.cases} | ${Object.entries(surface.outcomes).sort(([a], [b]) => a.localeCompare(b)).map(([outcome, count]) => `${outcome}: ${count}`).join(', ')} | ${surface.resent} | ${surface.failures.length} |`).join('\n')}
${surfaces.flatMap((surface) => surface.failures.map((failure) => `\n- ${surface.surface}: ${failure.split('\n')[0].slice(0, 300)}`)).join('')}`)}

${section('isolation', 'Isolation audit', () => `
Every operation of \`/v1/openapi.json\` (${operations}) and every root field of the supergraph (${rootFields.Query} queries, ${rootFields.Mutation} mutations, ${rootFields.Subscription} subscriptions) called with another workspace's ids: ${probes ? `${probes[1]} probes, answered ${Object.entries(JSON.parse(probes[2]) as Record<string, number>).map(([answer, count]) => `${answer}: ${count}`).join(', ')}` : 'the probe count was not printed'}; ${passed(isolation.tests)} of ${isolation.tests.length} audit tests passed (${isolation.seconds} s).`)}

${section('load', 'Load', () => `
${loadFigures ? loadFigures.report : 'The load run wrote no figures.'}

${passed(load.tests)} of ${load.tests.length} load tests passed (the budget held in every workspace-minute, no process crashed, no 500, every refusal in its envelope, the heap flat within 10 %).`)}
`;
writeFileSync(reliabilityFile, document);
console.log(`\nRELIABILITY.md written (${Math.round((Date.now() - started) / 60_000)} minutes).`);
