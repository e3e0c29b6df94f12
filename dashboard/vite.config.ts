import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The dashboard's build: Preact's JSX through Vite's own transform (no framework plugin), hashed assets for long caching. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    reportCompressedSize: false,
    // dist/.vite/manifest.json: the chunk graph the first-load size test walks.
    manifest: true,
  },
  server: { proxy: { '/graphql': { target: 'http://localhost:4000', ws: true }, '/v1': 'http://localhost:4000' } },
});
