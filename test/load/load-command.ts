import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm run load [-- --seconds N --workspaces N]`: the load run of
 * `test/load.test.ts` at full size (100 workspaces, 10 minutes, each at its
 * budget of 600 requests a minute plus a tenth, so the budget is met), with
 * the heap checked flat within 10 %. Prints the report; `--figures FILE`
 * keeps the figures as JSON (RELIABILITY.md is written from them).
 */
const flag = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const seconds = flag('seconds', '600');
const workspaces = flag('workspaces', '100');
const limit = flag('limit', '600');
const send = flag('send', String(Math.round(Number(limit) * 1.1)));
const dir = mkdtempSync(path.join(os.tmpdir(), 'earshot-load-'));
const figuresFile = flag('figures', path.join(dir, 'figures.json'));

const run = spawnSync('npx', ['vitest', 'run', 'test/load.test.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    EARSHOT_LOAD_SECONDS: seconds,
    EARSHOT_LOAD_WORKSPACES: workspaces,
    EARSHOT_LOAD_LIMIT: limit,
    EARSHOT_LOAD_SEND: send,
    EARSHOT_LOAD_HEAP_CHECK: '1',
    EARSHOT_LOAD_FIGURES_FILE: figuresFile,
  },
});
try {
  console.log(`\n${JSON.parse(readFileSync(figuresFile, 'utf8')).report}`);
} catch {
  console.log('\nThe run wrote no figures.');
}
rmSync(dir, { recursive: true, force: true });
process.exit(run.status ?? 1);
