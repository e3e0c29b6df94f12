import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FuzzFigures } from './fuzz-run.ts';

/**
 * `npm run fuzz`: the fuzz runs of every surface (REST and the compatibility
 * API, GraphQL, MCP) at many times the size `npm test` runs them, one file
 * after another so that a shared machine is not swamped, with a seed of its
 * own each time unless `EARSHOT_FUZZ_SEED` names one (to replay a failure).
 * Prints the cases, the answers by status and every failure per surface.
 */

const files = ['test/openapi-bad-input.test.ts', 'test/graphql-fuzz.test.ts', 'test/mcp-fuzz.test.ts'];
const scale = process.env.EARSHOT_FUZZ_SCALE ?? '30';
const seed = process.env.EARSHOT_FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
const figuresDir = mkdtempSync(path.join(os.tmpdir(), 'earshot-fuzz-'));

console.log(`Fuzzing with seed ${seed} at ${scale}× the npm test run (EARSHOT_FUZZ_SEED=${seed} EARSHOT_FUZZ_SCALE=${scale} replays it)\n`);
const run = spawnSync('npx', ['vitest', 'run', '--no-file-parallelism', ...files], {
  stdio: 'inherit',
  env: { ...process.env, EARSHOT_FUZZ_SCALE: scale, EARSHOT_FUZZ_SEED: seed, EARSHOT_FUZZ_FIGURES_DIR: figuresDir },
});

const surfaces: FuzzFigures[] = readdirSync(figuresDir).map((name) => JSON.parse(readFileSync(path.join(figuresDir, name), 'utf8')));
rmSync(figuresDir, { recursive: true, force: true });
console.log('\n| Surface | Cases | Answers | Sent again after a 503 | Failures |\n|---|---:|---|---:|---:|');
for (const surface of surfaces) {
  const answers = Object.entries(surface.outcomes)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([outcome, count]) => `${outcome}: ${count}`)
    .join(', ');
  console.log(`| ${surface.surface} | ${surface.cases} | ${answers} | ${surface.resent} | ${surface.failures.length} |`);
}
const total = surfaces.reduce((sum, surface) => sum + surface.cases, 0);
console.log(`\n${total} cases in all, seed ${seed}.`);
for (const failure of surfaces.flatMap((surface) => surface.failures.map((text) => `${surface.surface}: ${text}`))) console.log(`\nFailure: ${failure}`);
process.exit(run.status ?? 1);
