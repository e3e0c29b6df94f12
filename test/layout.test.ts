import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const depcruise = path.join(root, 'node_modules/.bin/depcruise');
const checkedFolders = ['main.ts', 'cli', 'server', 'runtime', 'vocabulary', 'classifier', 'subgraphs', 'jobs', 'gateway', 'rest-facade', 'oauth', 'mcp', 'bench', 'dashboard'];

/** Runs the layout check in `cwd` over `targets`; resolves with its exit code and report either way. */
async function checkLayout(cwd: string, targets: string[]): Promise<{ code: number; report: string }> {
  try {
    const { stdout } = await run(depcruise, ['--config', path.join(root, '.dependency-cruiser.cjs'), '--output-type', 'err', ...targets], { cwd });
    return { code: 0, report: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, report: failed.stdout + failed.stderr };
  }
}

describe('layout', () => {
  it('imports flow one way, subgraphs are used through their index.ts, and nothing imports in a circle', async () => {
    const { code, report } = await checkLayout(root, checkedFolders.filter((target) => existsSync(path.join(root, target))));
    expect(report.replace(/\n+$/, '')).not.toMatch(/error /);
    expect(code).toBe(0);
  }, 60_000);

  it('names the rule each wrong import breaks', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'earshot-layout-'));
    try {
      await cp(path.join(root, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
      const files: Record<string, string> = {
        'vocabulary/words.ts': "export const words = 1;\n",
        'runtime/plumbing.ts': "import { poll } from '../jobs/poll/index.ts';\nexport const plumbing = poll;\n",
        'jobs/poll/index.ts': "import { wallet } from '../../subgraphs/billing/wallet-store.ts';\nexport const poll = wallet;\n",
        'subgraphs/billing/wallet-store.ts': "export const wallet = 1;\n",
        'subgraphs/billing/index.ts': "export { wallet } from './wallet-store.ts';\n",
        'subgraphs/keywords/keyword.ts': "import { wallet } from '../billing/wallet-store.ts';\nimport { job } from '../../jobs/poll/index.ts';\nexport const keyword = wallet + job;\n",
        'subgraphs/mentions/a.ts': "import { b } from './b.ts';\nexport const a = b;\n",
        'subgraphs/mentions/b.ts': "import { a } from './a.ts';\nexport const b = a;\n",
      };
      for (const [file, text] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await writeFile(path.join(dir, file), text);
      }
      const { code, report } = await checkLayout(dir, ['vocabulary', 'runtime', 'jobs', 'subgraphs']);
      expect(code).not.toBe(0);
      expect(report).toContain('runtime-imports-only-vocabulary: runtime/plumbing.ts → jobs/poll/index.ts');
      expect(report).toContain('outside-through-subgraph-index: jobs/poll/index.ts → subgraphs/billing/wallet-store.ts');
      expect(report).toContain('subgraph-through-its-index: subgraphs/keywords/keyword.ts → subgraphs/billing/wallet-store.ts');
      expect(report).toContain('subgraphs-import-downward: subgraphs/keywords/keyword.ts → jobs/poll/index.ts');
      expect(report).toMatch(/no-circular: subgraphs\/mentions\/(a|b)\.ts/);
      expect(report).not.toContain('subgraphs/billing/index.ts →');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
