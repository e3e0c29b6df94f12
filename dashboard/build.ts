import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the dashboard into `dashboard/dist` when it is missing or was built
 * from other sources: `npm install`/`npm ci` (the `prepare` script), `npm
 * start` (main.ts) and the test run's set-up all run this, so a fresh clone
 * serves the dashboard without a separate step. `--force` builds regardless.
 */
const dashboard = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(dashboard, '..');
export const distDir = path.join(dashboard, 'dist');
const fingerprintFile = path.join(distDir, '.fingerprint');

/** What the build reads: the app's sources and set-up, the supergraph its operations are typed from, and the locked dependencies. */
async function sourceFiles(): Promise<string[]> {
  const sources = (await readdir(path.join(dashboard, 'src'), { recursive: true }))
    .filter((file) => !file.startsWith(`graphql${path.sep}`) && /\.(tsx?|css)$/.test(file))
    .map((file) => path.join(dashboard, 'src', file));
  const setup = ['index.html', 'vite.config.ts', 'codegen.ts', 'build.ts'].map((file) => path.join(dashboard, file));
  // The shared vocabulary (platform names) is part of the page too.
  const vocabulary = (await readdir(path.join(root, 'vocabulary'))).filter((file) => file.endsWith('.ts')).map((file) => path.join(root, 'vocabulary', file));
  return [...sources, ...setup, ...vocabulary, path.join(root, 'schema', 'supergraph.graphql'), path.join(root, 'package-lock.json')].sort();
}

async function fingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await sourceFiles()) hash.update(path.relative(root, file)).update('\0').update(await readFile(file)).update('\0');
  return hash.digest('hex');
}

/** Whether `dist/` holds a build of the current sources. */
export async function dashboardIsFresh(): Promise<boolean> {
  if (!existsSync(path.join(distDir, 'index.html')) || !existsSync(fingerprintFile)) return false;
  return (await readFile(fingerprintFile, 'utf8')) === (await fingerprint());
}

/** Builds unless `dist/` is fresh; answers whether it built. */
export async function buildDashboard(options: { force?: boolean } = {}): Promise<boolean> {
  if (!options.force && (await dashboardIsFresh())) return false;
  // Loaded only to build: a fresh check (every `npm start`) stays quick.
  const [{ build }, { generateOperations }] = await Promise.all([import('vite'), import('./codegen.ts')]);
  await generateOperations();
  await build({ configFile: path.join(dashboard, 'vite.config.ts'), logLevel: 'warn' });
  await writeFile(fingerprintFile, await fingerprint());
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const built = await buildDashboard({ force: process.argv.includes('--force') });
  console.error(built ? `dashboard built into ${path.relative(process.cwd(), distDir)} in ${Date.now() - started} ms` : 'dashboard is up to date');
}
