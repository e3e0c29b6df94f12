import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createTestDatabase } from './harness.ts';
import { loadReport, runLoad } from './load/load-run.ts';

/**
 * Issue 17 point 6 at smoke size: two Earshot processes on one PostgreSQL,
 * 10 workspaces for 30 s at five times a budget cut to 30 a minute, with
 * ingestion and deliveries running. Budgets are per clock minute and the
 * run may straddle two of them: at five times the budget, even 15 s in a
 * minute send more than the budget, so refusals are certain.
 * `npm run load` runs it at full size through the EARSHOT_LOAD_* variables.
 * Invariants only, no timings: the budget holds across the two processes,
 * neither crashes, nothing answers 500 or outside its envelope (a 503 past
 * the request deadline is the designed answer of an overloaded machine;
 * connections a starved server resets are counted in the report).
 */
const env = process.env;
const seconds = Number(env.EARSHOT_LOAD_SECONDS ?? 30);
const workspaces = Number(env.EARSHOT_LOAD_WORKSPACES ?? 10);
const limitPerMinute = Number(env.EARSHOT_LOAD_LIMIT ?? 30);
const sendPerMinute = Number(env.EARSHOT_LOAD_SEND ?? limitPerMinute * 5);

it(
  `holds the rate limit across two processes with ${workspaces} workspaces for ${seconds} s, with no 5xx`,
  async () => {
    const figures = await runLoad({ databaseUrl: await createTestDatabase(), seconds, workspaces, limitPerMinute, sendPerMinute });
    const report = loadReport(figures);
    console.log(report);
    if (env.EARSHOT_LOAD_FIGURES_FILE) writeFileSync(env.EARSHOT_LOAD_FIGURES_FILE, JSON.stringify({ ...figures, report }));
    expect(figures.limited).toBeGreaterThan(0);
    expect(figures.windows.filter((window) => !window.held)).toEqual([]);
    expect(figures.processesAlive).toBe(2);
    expect(Object.keys(figures.errors).filter((result) => /^5\d\d/.test(result) && !/^503 service_unavailable$/i.test(result))).toEqual([]);
    expect(figures.badEnvelopes).toEqual([]);
    expect(figures.heap.map((each) => each.process)).toEqual(['process A', 'process B']);
    if (env.EARSHOT_LOAD_HEAP_CHECK === '1') for (const each of figures.heap) expect(Math.abs(each.change)).toBeLessThanOrEqual(0.1);
  },
  seconds * 1000 + 480_000,
);
