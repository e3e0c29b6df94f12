import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..');

it('npm run bench with a word no benchmark title holds exits 2 naming it and the titles, before starting anything', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'rest', 'nonsense'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(2);
  expect(output).toMatch(/^npm run bench: no benchmark title contains "nonsense"; the titles are:\n {2}REST path: /);
}, 120_000);
