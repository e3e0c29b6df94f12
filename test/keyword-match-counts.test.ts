import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../runtime/database.ts';
import { newId } from '../runtime/ids.ts';
import { keywordMatchCounts } from '../subgraphs/mentions/keyword-match-stats-store.ts';
import { isRelevant } from '../subgraphs/mentions/relevance.ts';
import { addKeywords, newWorkspace } from './billing-seed.ts';
import { openTestDatabase } from './harness.ts';

let sql: Sql;

beforeAll(async () => {
  ({ sql } = await openTestDatabase());
});
afterAll(() => sql?.end());

interface SeededMention {
  keywordId: string;
  fuzzy: boolean;
  relevance: number | null;
  verdictRelevant: boolean | null;
  createdAt: Date;
  publishedAt: Date;
}

const now = new Date('2030-05-03T12:00:00Z');
const fourteenDaysAgo = new Date('2030-04-19T12:00:00Z');
const at = (iso: string) => new Date(iso);
// Each edge of a figure on both sides: 14 days ago, the month's start, 7 days ago by publication.
const createdTimes = ['2030-03-10T08:00:00Z', '2030-04-19T11:59:59.999Z', '2030-04-19T12:00:00Z', '2030-04-30T23:59:59.999Z', '2030-05-01T00:00:00Z', '2030-05-03T11:00:00Z'].map(at);
const publishedTimes = ['2029-01-01T00:00:00Z', '2030-04-26T11:59:59.999Z', '2030-04-26T12:00:00Z', '2030-05-02T09:30:00Z'].map(at);

async function seed(mentions: SeededMention[], workspaceId: string): Promise<void> {
  const authorId = newId('aut');
  await sql`insert into authors (id, platform, platform_id, name, handle, url) values (${authorId}, 'reddit', ${authorId}, 'A', 'a', 'https://example.com/a')`;
  const postIds = mentions.map(() => newId('pst'));
  await sql`
    insert into posts (id, platform, external_id, url, text, published_at, author_id)
    select id, 'reddit', id, 'https://example.com/' || id, 'text', published_at, ${authorId}
    from unnest(${sql.array(postIds)}::text[], ${sql.array(mentions.map((m) => m.publishedAt.toISOString()))}::timestamptz[]) as t(id, published_at)`;
  await sql`
    insert into mentions (id, workspace_id, keyword_id, post_id, fuzzy, relevance, verdict_relevant, created_at, published_at, platform)
    select ${sql.unsafe("'mm_' || t.post_id")}, ${workspaceId}, t.keyword_id, t.post_id, t.fuzzy, t.relevance, t.verdict_relevant, t.created_at, t.published_at, 'reddit'
    from unnest(${sql.array(postIds)}::text[], ${sql.array(mentions.map((m) => m.keywordId))}::text[], ${sql.array(mentions.map((m) => m.fuzzy))}::boolean[],
                ${sql.array(mentions.map((m) => m.relevance) as number[])}::smallint[], ${sql.array(mentions.map((m) => m.verdictRelevant) as boolean[])}::boolean[],
                ${sql.array(mentions.map((m) => m.createdAt.toISOString()))}::timestamptz[], ${sql.array(mentions.map((m) => m.publishedAt.toISOString()))}::timestamptz[])
         as t(post_id, keyword_id, fuzzy, relevance, verdict_relevant, created_at, published_at)`;
}

/** The figures of spec 2.1.4 written out over the rows themselves: what the statement must answer. */
function expected(mentions: SeededMention[], keywordId: string, since: Date) {
  // A match is charged when scored (or judged by a user), and only what billing counts is counted (2.1.4); one not scored
  // yet is the health report's `unscored`.
  const counted = mentions.filter((m) => m.keywordId === keywordId && (m.relevance !== null || m.verdictRelevant !== null));
  const inWindow = counted.filter((m) => m.createdAt >= since);
  const published = counted.map((m) => m.publishedAt.getTime());
  return {
    totals: {
      keywordId,
      mentions: counted.length,
      relevant: counted.filter(isRelevant).length,
      last7d: counted.filter((m) => m.publishedAt >= at('2030-04-26T12:00:00Z')).length,
      lastMentionAt: published.length ? new Date(Math.max(...published)) : null,
      feedbackRelevant: counted.filter((m) => m.verdictRelevant === true).length,
      feedbackNotRelevant: counted.filter((m) => m.verdictRelevant === false).length,
    },
    window: {
      keywordId,
      relevant: inWindow.filter(isRelevant).length,
      filtered: inWindow.filter((m) => m.relevance !== null && !isRelevant(m)).length,
    },
  };
}

describe('keywordMatchCounts: lifetime, calendar and window figures of a keyword page (spec 2.1.4)', () => {
  it('answers every figure of every window as the rules over the rows do, at each edge of each figure', async () => {
    const { workspaceId } = await newWorkspace(sql);
    const [busy, sparse, silent] = await addKeywords(sql, workspaceId, 3);
    const mentions: SeededMention[] = [];
    for (const fuzzy of [false, true])
      for (const relevance of [null, 0, 39, 40, 90])
        for (const verdictRelevant of [null, true, false])
          for (const createdAt of createdTimes)
            for (const publishedAt of publishedTimes) mentions.push({ keywordId: busy.id, fuzzy, relevance, verdictRelevant, createdAt, publishedAt });
    mentions.push(
      { keywordId: sparse.id, fuzzy: false, relevance: 70, verdictRelevant: null, createdAt: at('2030-04-02T10:00:00Z'), publishedAt: at('2030-04-01T10:00:00Z') },
      { keywordId: sparse.id, fuzzy: true, relevance: null, verdictRelevant: null, createdAt: at('2030-05-02T10:00:00Z'), publishedAt: at('2030-05-02T09:00:00Z') },
    );
    await seed(mentions, workspaceId);
    await sql`vacuum analyze mentions`;

    const windows = [
      { keywordId: busy.id, since: fourteenDaysAgo },
      // the health window of a keyword whose rules changed at the month's start
      { keywordId: busy.id, since: at('2030-05-01T00:00:00Z') },
      { keywordId: sparse.id, since: fourteenDaysAgo },
      { keywordId: silent.id, since: fourteenDaysAgo },
      { keywordId: busy.id, since: at('2030-05-03T11:00:00.001Z') },
    ];
    const answers = await keywordMatchCounts(sql, windows, now);
    expect(answers).toEqual(windows.map(({ keywordId, since }) => expected(mentions, keywordId, since)));
    // The figures are not all zero or all equal: each edge above sorts some rows in and some out.
    expect(answers[0].totals).toMatchObject({ mentions: 672, last7d: 336 });
    expect(answers[3]).toEqual({
      totals: { keywordId: silent.id, mentions: 0, relevant: 0, last7d: 0, lastMentionAt: null, feedbackRelevant: 0, feedbackNotRelevant: 0 },
      window: { keywordId: silent.id, relevant: 0, filtered: 0 },
    });
  });

  it('answers nothing for no windows', async () => {
    expect(await keywordMatchCounts(sql, [], now)).toEqual([]);
  });
});
