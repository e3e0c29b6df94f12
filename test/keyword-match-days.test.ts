import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../runtime/database.ts';
import { newId } from '../runtime/ids.ts';
import { keywordMatchCounts, keywordMatchCountsSql, recountKeywordMatchDays } from '../subgraphs/mentions/keyword-match-stats-store.ts';
import { discardMentions, lockUnscoredMentions, saveClassifications, updateMentions } from '../subgraphs/mentions/mention-store.ts';
import { addKeywords, newWorkspace } from './billing-seed.ts';
import { openTestDatabase } from './harness.ts';

let sql: Sql;

beforeAll(async () => {
  ({ sql } = await openTestDatabase());
});
afterAll(() => sql?.end());

const hour = 3_600_000;
const day = 24 * hour;

/**
 * The statement keywordMatchCounts ran before migration 072, counting
 * every scored match of the keyword: the reference the counters must
 * answer as, figure for figure, in every state.
 */
async function countedOverRows(keywordId: string, since: Date, now: Date) {
  const weekAgo = new Date(now.getTime() - 7 * day);
  const relevant = sql`coalesce(m.verdict_relevant, m.relevance >= 40, false)`;
  const [row] = await sql<Record<string, unknown>[]>`
    select count(*)::int as mentions,
           count(*) filter (where ${relevant})::int as relevant,
           count(*) filter (where m.published_at >= ${weekAgo})::int as last7d,
           max(m.published_at) as last_mention_at,
           count(*) filter (where m.verdict_relevant)::int as feedback_relevant,
           count(*) filter (where not m.verdict_relevant)::int as feedback_not_relevant,
           count(*) filter (where m.created_at >= ${since} and ${relevant})::int as window_relevant,
           count(*) filter (where m.created_at >= ${since} and m.relevance is not null and not ${relevant})::int as window_filtered
    from mentions m
    where m.keyword_id = ${keywordId} and (m.relevance is not null or m.verdict_relevant is not null)`;
  return {
    totals: {
      keywordId,
      mentions: row.mentions,
      relevant: row.relevant,
      last7d: row.last7d,
      lastMentionAt: row.lastMentionAt ?? null,
      feedbackRelevant: row.feedbackRelevant,
      feedbackNotRelevant: row.feedbackNotRelevant,
    },
    window: { keywordId, relevant: row.windowRelevant, filtered: row.windowFiltered },
  };
}

/** A small seeded generator (mulberry32): a failing sequence is the same sequence when run again. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const below = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[below(items.length)];
  return { next, below, pick };
}

const now = new Date('2030-05-10T13:27:41.250Z');
const midnight = (at: number) => Math.floor(at / day) * day;

describe('keyword_match_days: the counters answer as counting every scored match did (migration 072)', () => {
  it('answers every figure of every window as the rows do, through random sequences of storing, scoring, verdicts and deletes', async () => {
    const random = generator(72);
    const { workspaceId } = await newWorkspace(sql);
    const keywords = (await addKeywords(sql, workspaceId, 3)).map((keyword) => keyword.id);
    const authorId = newId('aut');
    await sql`insert into authors (id, platform, platform_id, name, handle, url) values (${authorId}, 'reddit', ${authorId}, 'A', 'a', 'https://example.com/a')`;
    const live: string[] = [];
    // Instants on and around day edges, the edges of 7 and 14 days ago, and anywhere within 20 days.
    const instant = (): Date => {
      const edges = [midnight(now.getTime()), midnight(now.getTime() - 7 * day), now.getTime() - 7 * day, now.getTime() - 14 * day, midnight(now.getTime() - 14 * day)];
      const base = random.next() < 0.4 ? random.pick(edges) : now.getTime() - random.below(20 * day);
      return new Date(base + random.pick([0, 0, -1, 1, -hour, hour]));
    };

    const store = async (tx: Sql, count: number) => {
      const rows = Array.from({ length: count }, () => {
        const createdAt = instant();
        const scoredAtInsert = random.next() < 0.2;
        return {
          id: newId('mm'),
          postId: newId('pst'),
          keywordId: random.pick(keywords),
          fuzzy: random.next() < 0.3,
          createdAt,
          // At most its match time, as storing writes it, sometimes days before.
          publishedAt: new Date(createdAt.getTime() - random.pick([0, 1, hour, day, 3 * day, 9 * day]) - random.below(hour)),
          relevance: scoredAtInsert ? random.pick([0, 39, 40, 99]) : null,
          verdictRelevant: scoredAtInsert ? random.pick([null, true, false]) : null,
        };
      });
      await tx`
        insert into posts (id, platform, external_id, url, text, published_at, author_id)
        select id, 'reddit', id, 'https://example.com/' || id, 'text', published_at, ${authorId}
        from unnest(${tx.array(rows.map((row) => row.postId))}::text[], ${tx.array(rows.map((row) => row.publishedAt.toISOString()))}::timestamptz[]) as t(id, published_at)`;
      await tx`
        insert into mention_keys (id, keyword_id, post_id, created_at)
        select * from unnest(${tx.array(rows.map((row) => row.id))}::text[], ${tx.array(rows.map((row) => row.keywordId))}::text[],
                             ${tx.array(rows.map((row) => row.postId))}::text[], ${tx.array(rows.map((row) => row.createdAt.toISOString()))}::timestamptz[])`;
      await tx`
        insert into mentions (id, workspace_id, keyword_id, post_id, fuzzy, relevance, verdict_relevant, created_at, published_at, platform)
        select t.id, ${workspaceId}, t.keyword_id, t.post_id, t.fuzzy, t.relevance, t.verdict_relevant, t.created_at, t.published_at, 'reddit'
        from unnest(${tx.array(rows.map((row) => row.id))}::text[], ${tx.array(rows.map((row) => row.keywordId))}::text[], ${tx.array(rows.map((row) => row.postId))}::text[],
                    ${tx.array(rows.map((row) => row.fuzzy))}::boolean[], ${tx.array(rows.map((row) => row.relevance) as number[])}::smallint[],
                    ${tx.array(rows.map((row) => row.verdictRelevant) as boolean[])}::boolean[],
                    ${tx.array(rows.map((row) => row.createdAt.toISOString()))}::timestamptz[], ${tx.array(rows.map((row) => row.publishedAt.toISOString()))}::timestamptz[])
             as t(id, keyword_id, post_id, fuzzy, relevance, verdict_relevant, created_at, published_at)`;
      live.push(...rows.map((row) => row.id));
    };
    const some = (count: number) => Array.from({ length: Math.min(count, live.length) }, () => random.pick(live));
    const operations: ((tx: Sql) => Promise<unknown>)[] = [
      (tx) => store(tx, 1 + random.below(12)),
      (tx) =>
        saveClassifications(
          tx,
          [...new Set(some(1 + random.below(8)))].map((mentionId) => ({
            mentionId,
            classification: { relevance: random.pick([0, 12, 39, 40, 41, 70, 99]), sentiment: 'neutral', intents: [], automated: false, language: 'en', note: '', priority: 1 },
          })),
          new Date(),
        ),
      (tx) => updateMentions(tx, workspaceId, some(1 + random.below(4)), { verdictRelevant: random.pick([true, false, null]) }),
      (tx) => updateMentions(tx, workspaceId, some(1 + random.below(4)), { status: random.pick(['done', 'open'] as const), triageNote: 'seen' }),
      (tx) => tx`update mentions set relevance = null where id = any(${tx.array(some(2))})`,
      (tx) => {
        const gone = [...new Set(some(1 + random.below(4)))];
        live.splice(0, live.length, ...live.filter((id) => !gone.includes(id)));
        return discardMentions(tx, gone);
      },
    ];

    const compare = async (step: number) => {
      for (const keywordId of keywords) {
        const windows = [now.getTime() - 14 * day, midnight(now.getTime() - 3 * day), instant().getTime(), now.getTime() - 90 * day].map((since) => ({ keywordId, since: new Date(since) }));
        for (const at of [now, new Date(now.getTime() - 2 * day - 3 * hour), new Date(midnight(now.getTime()) + 7)]) {
          const answers = await keywordMatchCounts(sql, windows, at);
          const expected = await Promise.all(windows.map(({ since }) => countedOverRows(keywordId, since, at)));
          expect({ step, answers }).toEqual({ step, answers: expected });
        }
      }
    };

    for (let step = 0; step < 120; step++) {
      if (random.next() < 0.3) {
        await sql.begin(async (tx) => {
          for (let i = 0; i < 3; i++) await random.pick(operations)(tx as unknown as Sql);
        });
      } else {
        await random.pick(operations)(sql);
      }
      if (step % 6 === 5) await compare(step);
    }
    await compare(120);
    const scored = await sql<{ n: number }[]>`select count(*)::int as n from mentions where keyword_id = any(${sql.array(keywords)}) and (relevance is not null or verdict_relevant is not null)`;
    expect(scored[0].n).toBeGreaterThan(50);

    // Counted again from the rows, the table is the same: the newest publication time of each day too.
    const maintained = await sql`select * from keyword_match_days where keyword_id = any(${sql.array(keywords)}) order by 1, 2, 3`;
    await recountKeywordMatchDays(sql, keywords);
    expect(await sql`select * from keyword_match_days where keyword_id = any(${sql.array(keywords)}) order by 1, 2, 3`).toEqual(maintained);

    // A keyword deleted takes its counted days with its mentions.
    await sql`delete from keywords where id = ${keywords[0]}`;
    expect(await sql`select * from keyword_match_days where keyword_id = ${keywords[0]}`).toHaveLength(0);
    await compare(121);
  });

  it('stays exact with scoring transactions and verdicts racing on the same keywords, none waiting on another for good', async () => {
    const { workspaceId } = await newWorkspace(sql);
    const keywords = (await addKeywords(sql, workspaceId, 2)).map((keyword) => keyword.id);
    const authorId = newId('aut');
    await sql`insert into authors (id, platform, platform_id, name, handle, url) values (${authorId}, 'reddit', ${authorId}, 'A', 'a', 'https://example.com/a')`;
    const ids = Array.from({ length: 240 }, (_, i) => `mm_race${i}_${workspaceId}`);
    await sql`
      insert into posts (id, platform, external_id, url, text, published_at, author_id)
      select 'p' || id, 'reddit', 'p' || id, 'https://example.com/' || id, 'text', ${now}::timestamptz - (n % 40) * interval '7 hours', ${authorId}
      from unnest(${sql.array(ids)}::text[]) with ordinality as t(id, n)`;
    await sql`
      insert into mentions (id, workspace_id, keyword_id, post_id, relevance, created_at, published_at, platform)
      select id, ${workspaceId}, (${sql.array(keywords)}::text[])[1 + n % 2], 'p' || id, case when n % 3 = 0 then 50 end,
             ${now}::timestamptz - (n % 40) * interval '6 hours', ${now}::timestamptz - (n % 40) * interval '7 hours', 'reddit'
      from unnest(${sql.array(ids)}::text[]) with ordinality as t(id, n)`;
    const random = generator(7);
    const unscored = ids.filter((_, i) => (i + 1) % 3 !== 0);
    const scorer = async (batch: string[]) =>
      sql.begin(async (tx) => {
        const open = await lockUnscoredMentions(tx, batch);
        await saveClassifications(tx, [...open].map((mentionId) => ({
          mentionId,
          classification: { relevance: random.pick([10, 45, 80]), sentiment: 'neutral' as const, intents: [], automated: false, language: 'en', note: '', priority: 1 },
        })), new Date());
      });
    const judge = async (batch: string[]) =>
      sql.begin((tx) => updateMentions(tx as unknown as Sql, workspaceId, batch, { verdictRelevant: random.pick([true, false, null]) }));
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 12; i++) work.push(scorer(unscored.slice(i * 13, i * 13 + 13)));
    for (let i = 0; i < 24; i++) work.push(judge([random.pick(ids)]));
    const outcomes = await Promise.allSettled(work);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    for (const keywordId of keywords) {
      const since = new Date(now.getTime() - 3 * day - 5 * hour);
      expect((await keywordMatchCounts(sql, [{ keywordId, since }], now))[0]).toEqual(await countedOverRows(keywordId, since, now));
    }
  });

  it("reads a keyword's matches of the days at each time edge, not all of them", async () => {
    const { workspaceId } = await newWorkspace(sql);
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    const authorId = newId('aut');
    await sql`insert into authors (id, platform, platform_id, name, handle, url) values (${authorId}, 'reddit', ${authorId}, 'A', 'a', 'https://example.com/a')`;
    // 60 days of 50 scored matches a day, each published an hour before it was matched.
    await sql`
      insert into posts (id, platform, external_id, url, text, published_at, author_id)
      select 'pst_days' || i, 'reddit', 'days' || i, 'https://example.com/days' || i, 'text', ${now}::timestamptz - i * interval '30 minutes' - interval '1 hour', ${authorId}
      from generate_series(1, 3000) i`;
    await sql`
      insert into mentions (id, workspace_id, keyword_id, post_id, relevance, created_at, published_at, platform)
      select 'mm_days' || i, ${workspaceId}, ${keyword.id}, 'pst_days' || i, i % 100, ${now}::timestamptz - i * interval '30 minutes',
             ${now}::timestamptz - i * interval '30 minutes' - interval '1 hour', 'reddit'
      from generate_series(1, 3000) i`;
    await sql`vacuum analyze mentions`;
    const windows = sql`select * from unnest(${sql.array([keyword.id])}::text[], ${sql.array([new Date(now.getTime() - 14 * day).toISOString()])}::timestamptz[]) as w(keyword_id, since)`;
    const [{ 'QUERY PLAN': plan }] = await sql<{ 'QUERY PLAN': any[] }[]>`explain (analyze, format json) ${keywordMatchCountsSql(sql, windows, now)}`;
    let mentionRowsRead = 0;
    const walk = (node: any) => {
      if (typeof node['Relation Name'] === 'string' && node['Relation Name'].startsWith('mentions')) mentionRowsRead += node['Actual Rows'] * node['Actual Loops'];
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan[0].Plan);
    // The figures are those of all 3,000; the rows of `mentions` read, those of the days at the edges: the window's first
    // day, and the two match days of the posts published on the first day of `last7d` (48 matches a day).
    expect((await keywordMatchCounts(sql, [{ keywordId: keyword.id, since: new Date(now.getTime() - 14 * day) }], now))[0].totals.mentions).toBe(3000);
    expect(mentionRowsRead).toBeLessThanOrEqual(3 * 48);
  });
});
