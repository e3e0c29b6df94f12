import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { ingestPosts } from '../jobs/ingest-posts.ts';
import { systemClock } from '../runtime/clock.ts';
import { connect } from '../runtime/database.ts';
import { migrate } from '../runtime/migrate.ts';
import { creditWalletByOperator } from '../subgraphs/billing/index.ts';
import { createKeyword, createMatcher, loadActiveMatchRules } from '../subgraphs/keywords/index.ts';
import { provisionWorkspace } from '../subgraphs/team/index.ts';
import type { BenchEnvironment } from './bench-environment.ts';
import type { Benchmark, BenchReport } from './benchmark.ts';

const workspaces = 20;
const keywordsPerWorkspace = 5;
const posts = 4_000;
/** Posts ingested first and not timed: JIT, connections and plans warm up on them. */
const warmUpPosts = 500;
/** Spec issue 5: at least 2,000 stored mentions a second end to end. */
const aim = 2_000;

function post(i: number, term: string): NormalizedPost {
  return {
    platform: 'hackernews',
    externalId: `bench-${i}`,
    url: `https://news.ycombinator.com/item?id=${9_000_000 + i}`,
    text: `Has anyone compared ${term} with the alternatives? We moved our team to ${term} last week and the alerts are great.`,
    publishedAt: new Date(Date.now() - (i % 1000) * 60_000),
    replyTo: null,
    links: [],
    author: { platformId: `user${i % 300}`, name: `user${i % 300}`, handle: `user${i % 300}`, url: `https://news.ycombinator.com/user?id=user${i % 300}`, avatarUrl: null, followers: null },
  };
}

/**
 * Posts → match → store → charge, on one connection pool, as a poll job runs
 * it: stored mentions a second. Every post matches one keyword; scoring jobs
 * are queued but not worked here (the classifier has its own benchmark).
 */
async function runIngestionBenchmark(environment: BenchEnvironment): Promise<BenchReport> {
  const sql = connect(await environment.createDatabase());
  try {
    await migrate(sql);
    const terms: string[] = [];
    for (let w = 0; w < workspaces; w++) {
      const { workspace } = await provisionWorkspace(sql, `Bench ${w}`);
      await creditWalletByOperator(sql, { workspaceId: workspace.id, cents: 1_000_000, at: new Date() });
      for (let k = 0; k < keywordsPerWorkspace; k++) {
        const term = `Product${w}x${k}`;
        await createKeyword(sql, workspace.id, { term, platforms: ['hackernews'], cap: { mentions: 1_000_000, per: 'month' } }, {});
        terms.push(term);
      }
    }
    const { rules, filters } = await loadActiveMatchRules(sql, { platform: 'hackernews' });
    const matcher = createMatcher(rules, filters);
    let queued = 0;
    const context = { sql, clock: systemClock, log: environment.log, send: async () => String(++queued) };
    const warmUp = Array.from({ length: warmUpPosts }, (_, i) => post(posts + i, terms[i % terms.length]));
    await ingestPosts(context, warmUp, (candidate) => matcher.match(candidate));
    const batch = Array.from({ length: posts }, (_, i) => post(i, terms[i % terms.length]));
    const started = performance.now();
    const outcome = await ingestPosts(context, batch, (candidate) => matcher.match(candidate));
    const seconds = (performance.now() - started) / 1000;
    const rate = outcome.stored.length / seconds;
    return {
      description: `${posts} posts (after ${warmUpPosts} untimed), each matching one of ${terms.length} keywords in ${workspaces} workspaces, ingested by one worker (match, store, charge, announce).`,
      columns: ['stored mentions', 'seconds', 'mentions/s', 'aim'],
      rows: [{ label: 'ingestPosts', values: [outcome.stored.length, seconds, rate, aim] }],
      verdict: rate >= aim ? `Meets the aim of ${aim} stored mentions/s.` : `Misses the aim of ${aim} stored mentions/s.`,
    };
  } finally {
    await sql.end();
  }
}

export const ingestionThroughput: Benchmark = { name: 'Ingestion: posts to stored, charged mentions', run: runIngestionBenchmark };
