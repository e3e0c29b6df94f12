import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships ESM (.mjs) and CJS builds; Node loads the CJS one for
    // every package, so the tests must too or two "realms" of graphql meet.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Files share their worker's modules: each file still starts its own
    // Earshot on its own database, and the suite spends a quarter of the
    // time it used to importing the server again for every file.
    isolate: false,
    // Two files at a time on the two cores CI has: most of a file's time is
    // spent waiting (on PostgreSQL, timers, child processes), and one at a
    // time took 23 minutes where two take 12.
    maxWorkers: 2,
    testTimeout: 30_000,
    // expect.poll waits for a page or a process to get somewhere; its default second is a loaded machine's page load.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
  },
});
