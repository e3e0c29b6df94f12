import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * How big a fuzz run is and where its figures go. `npm test` runs a seeded
 * few hundred cases over all surfaces; `npm run fuzz` sets
 * `EARSHOT_FUZZ_SCALE` (cases × the scale) and a seed of its own, and reads
 * the figures each run writes into `EARSHOT_FUZZ_FIGURES_DIR`.
 */
export const fuzzScale = Math.max(1, Number(process.env.EARSHOT_FUZZ_SCALE ?? 1) || 1);

/** The seed of every property of the run: fixed in `npm test`, so a failure there replays; `EARSHOT_FUZZ_SEED` for others. */
export const fuzzSeed = Number(process.env.EARSHOT_FUZZ_SEED ?? 20_240_610);

/** What a surface's run found, for the fuzz command's summary. */
export interface FuzzFigures {
  surface: string;
  seed: number;
  cases: number;
  /** Answers by HTTP status (and, for MCP, tool results by outcome). */
  outcomes: Record<string, number>;
  /** Requests sent a second time after meeting the request deadline once (503 on a loaded machine). */
  resent: number;
  /** Cases that broke a rule (a 5xx, an envelope out of shape), described. */
  failures: string[];
}

export function countOutcome(figures: FuzzFigures, outcome: string | number): void {
  figures.cases++;
  figures.outcomes[outcome] = (figures.outcomes[outcome] ?? 0) + 1;
}

/**
 * Keeps a failed property as one line of `figures.failures`, headed by
 * `where`: fast-check keeps the assertion that failed as the cause, and its
 * message names the request and the answer.
 */
export const recordFailure = (figures: FuzzFigures, where = '') => (failure: Error): void => {
  const reason = failure.cause instanceof Error ? failure.cause.message : '';
  figures.failures.push(`${where}${failure.message.split('\n').slice(0, 3).join(' ').slice(0, 1_500)}\n${reason.slice(0, 1_500)}`);
};

export const newFigures = (surface: string): FuzzFigures => ({ surface, seed: fuzzSeed, cases: 0, outcomes: {}, resent: 0, failures: [] });

/**
 * A request that met the request deadline (503 `service_unavailable`) is sent
 * once more after a pause: on a machine shared by several test runs any
 * request can be slow once. A request that is slow every time is a finding.
 */
export async function onceMoreWhenOverloaded<T>(figures: FuzzFigures, send: () => Promise<T>, overloaded: (answer: T) => boolean): Promise<T> {
  const first = await send();
  if (!overloaded(first)) return first;
  figures.resent++;
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  return send();
}

/** Writes a run's figures where `npm run fuzz` reads them; nothing under `npm test`. */
export function recordFigures(name: string, figures: unknown): void {
  const dir = process.env.EARSHOT_FUZZ_FIGURES_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(figures, null, 2));
}

/**
 * How long a generated URL may be: Node refuses a request line and headers
 * over 16 KiB with 431 before any route sees it (README "Limits"; the
 * request-limit tests cover that), so a fuzz case stays well under it to
 * reach the code it means to test.
 */
export const longestUrl = 12_000;

/** The longest start of `text` whose percent-encoded form fits in `maxEncoded` characters (every UTF-8 byte counted as its escape). */
export function clippedForUrl(text: string, maxEncoded: number): string {
  let used = 0;
  let end = 0;
  for (const point of text) {
    used += 3 * Buffer.byteLength(point);
    if (used > maxEncoded) break;
    end += point.length;
  }
  return text.slice(0, end);
}
