import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dashboardDistDir } from '../server/dashboard-files.ts';

/** The dashboard's first load must stay under 300 KB of compressed JavaScript (issue 16, point 9). */
const firstLoadLimit = 300 * 1024;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

async function readManifest(): Promise<Record<string, ManifestChunk>> {
  return JSON.parse(await readFile(path.join(dashboardDistDir, '.vite', 'manifest.json'), 'utf8'));
}

/** A chunk and every chunk it imports statically: what the browser must load before it runs. */
function closure(manifest: Record<string, ManifestChunk>, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) closure(manifest, imported, seen);
  return seen;
}

/** gzip level 9, as the public server sends the assets. */
async function gzippedSize(manifest: Record<string, ManifestChunk>, keys: Set<string>): Promise<number> {
  let total = 0;
  for (const key of keys) total += gzipSync(await readFile(path.join(dashboardDistDir, manifest[key].file)), { level: 9 }).length;
  return total;
}

describe('the dashboard bundle', () => {
  it('loads any page first with under 300 KB of gzip-compressed JavaScript', async () => {
    const manifest = await readManifest();
    const [entry] = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
    expect(entry[0]).toBe('index.html');
    const pages = entry[1].dynamicImports ?? [];
    expect(pages.length).toBeGreaterThanOrEqual(6);
    const sizes: Record<string, number> = {};
    for (const page of pages) sizes[page] = await gzippedSize(manifest, new Set([...closure(manifest, entry[0]), ...closure(manifest, page)]));
    const heaviest = Math.max(...Object.values(sizes));
    expect(heaviest).toBeGreaterThan(10 * 1024);
    expect(heaviest, `first load by landing page, gzip bytes: ${JSON.stringify(sizes)}`).toBeLessThan(firstLoadLimit);
  });
});
