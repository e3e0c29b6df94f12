import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../runtime/database.ts';
import { keywordDirectory } from '../subgraphs/keywords/index.ts';
import { migrate } from '../runtime/migrate.ts';
import { listMentions, makeMentionMonths } from '../subgraphs/mentions/index.ts';
import { mentionFilterSql } from '../subgraphs/mentions/mention-filter.ts';
import { findMention, storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { createTestDatabase } from './harness.ts';

let sql: Sql;
let url: string;
const workspaces: string[] = [];
/** Match times across months, on either side of a month's edge, the last in the month the conversion runs in or before it. */
const matchTimes = ['2025-01-15T10:00:00.123Z', '2025-03-31T23:59:59.999Z', '2025-04-01T00:00:00Z', '2026-06-10T08:30:00Z', '2026-11-01T12:00:00Z'];
const post = (externalId: string, publishedAt: Date): NormalizedPost => ({
  platform: 'hackernews',
  externalId,
  url: `https://news.ycombinator.com/item?id=${externalId}`,
  text: 'a post about the keyword',
  publishedAt,
  replyTo: null,
  links: [],
  author: { platformId: 'pg', name: 'pg', handle: 'pg', url: 'https://news.ycombinator.com/user?id=pg', avatarUrl: null, followers: null },
});

/** Two workspaces as migration 052 left them: keywords, mentions over several months, their comments, watches, compatibility feedback and charges. */
async function seedBeforePartitions(): Promise<void> {
  workspaces.push('org_first', 'org_second');
  // As provisioning left a workspace before the ledger's keys moved to a table of their own (056): its wallet, welcome credit and default group.
  await sql`insert into workspaces (id, name) select id, id from unnest(${sql.array(workspaces)}::text[]) as w(id)`;
  await sql`insert into wallets (workspace_id, credit_epoch, last_credit_fifteenths) select id, 1, 8700 from workspaces`;
  await sql`
    insert into ledger_entries (id, workspace_id, kind, amount_fifteenths, idempotency_key)
    select 'led_welcome_' || id, id, 'welcome_credit', 8700, 'welcome:' || id from workspaces`;
  await sql`insert into keyword_groups (id, workspace_id, name, is_default) select 'grp_' || id, id, 'Default', true from workspaces`;
  await sql`
    insert into keywords (id, workspace_id, group_id, term)
    select g.workspace_id || '_kw' || k, g.workspace_id, g.id, 'Acme ' || k
    from keyword_groups g cross join generate_series(1, 2) k where g.workspace_id = any(${sql.array(workspaces)}) and g.is_default`;
  await sql`insert into authors (id, platform, platform_id, name, handle, url) values ('aut_1', 'hackernews', 'pg', 'pg', 'pg', 'https://news.ycombinator.com/user?id=pg')`;
  await sql`
    insert into posts (id, platform, external_id, url, text, published_at, author_id)
    select 'pst_' || i, 'hackernews', 'item' || i, 'https://news.ycombinator.com/item?id=' || i, 'Acme post ' || i, t.at - interval '1 hour', 'aut_1'
    from unnest(${sql.array(matchTimes)}::timestamptz[]) with ordinality as t(at, i)`;
  // Every post matched by both keywords of both workspaces; one post published after its match (a platform's clock ahead).
  await sql`
    insert into mentions (id, workspace_id, keyword_id, post_id, relevance, sentiment, created_at, published_at, platform)
    select 'mm_' || w.workspace_id || '_' || k || '_' || p.id, w.workspace_id, w.workspace_id || '_kw' || k, p.id, 10 * k, 'positive', p.published_at + interval '1 hour',
           case when p.id = 'pst_4' then p.published_at + interval '2 hours' else p.published_at end, p.platform
    from posts p cross join unnest(${sql.array(workspaces)}::text[]) as w(workspace_id) cross join generate_series(1, 2) k`;
  await sql`
    insert into comments (id, mention_id, external_id, url, text, published_at, author_name, author_handle, author_url)
    select 'cmt_' || id, id, 'c' || id, 'https://example.com/c', 'a comment', now(), 'x', 'x', 'https://example.com/x' from mentions`;
  await sql`insert into comment_watches (mention_id, next_check_at, until) select id, now(), now() + interval '1 day' from mentions where keyword_id like '%_kw1'`;
  await sql`insert into compat_feedback (mention_id, reason, source) select id, 'spam', 'API' from mentions where keyword_id like '%_kw2'`;
  await sql`
    insert into ledger_entries (id, workspace_id, kind, keyword_id, amount_fifteenths, idempotency_key, occurred_at)
    select 'led_' || id, workspace_id, 'mention', keyword_id, -2, id, created_at from mentions`;
}

const snapshot = async () => ({
  mentions: await sql`select * from mentions order by id`,
  comments: await sql`select * from comments order by id`,
  watches: await sql`select * from comment_watches order by mention_id`,
  feedback: await sql`select * from compat_feedback order by mention_id`,
  ledger: await sql`select * from ledger_entries order by id`,
  balances: await sql`select workspace_id, sum(amount_fifteenths)::bigint as balance from ledger_entries group by 1 order by 1`,
  wallets: await sql`select * from wallets order by workspace_id`,
});

let before: Awaited<ReturnType<typeof snapshot>>;
/** Read as migration 053 left it: later migrations add columns that are not the conversion's doing. */
let converted: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  url = await createTestDatabase({ empty: true });
  sql = connect(url, { max: 2 });
  await migrate(sql, { through: '052_mentions_by_language.sql' });
  await seedBeforePartitions();
  before = await snapshot();
  await migrate(sql, { through: '053_mentions_by_month.sql' });
  converted = await snapshot();
  await migrate(sql);
});
afterAll(() => sql?.end());

describe('mentions by month (migration 053)', () => {
  it('converts a database without losing a row or moving a balance, each mention in the month of its match', async () => {
    const after = converted;
    // The one change: a publication later than its match is counted at the match.
    const published = (rows: typeof before.mentions) => rows.map((row) => ({ ...row, publishedAt: new Date(Math.min(row.publishedAt.getTime(), row.createdAt.getTime())) }));
    expect(after.mentions).toEqual(published(before.mentions));
    expect(after.mentions.some((row, i) => row.publishedAt.getTime() !== before.mentions[i].publishedAt.getTime())).toBe(true);
    for (const table of ['comments', 'watches', 'feedback', 'ledger', 'balances', 'wallets'] as const) expect(after[table]).toEqual(before[table]);
    expect(before.mentions).toHaveLength(matchTimes.length * 4);

    const placed = await sql<{ partition: string; createdAt: Date }[]>`select tableoid::regclass::text as partition, created_at from mentions`;
    for (const { partition, createdAt } of placed) {
      const month = createdAt.toISOString().slice(0, 7).replace('-', '_');
      expect([`mentions_${month}`, 'mentions_earlier']).toContain(partition);
    }
    expect(placed.filter((row) => row.partition === 'mentions_earlier')).toEqual([]);
    const keys = await sql`select id, keyword_id, post_id, created_at from mention_keys order by id`;
    expect(keys).toEqual(after.mentions.map(({ id, keywordId, postId, createdAt }) => ({ id, keywordId, postId, createdAt })));
  });

  it('stores a post once per keyword and finds a mention by id in its month after the conversion', async () => {
    const [workspaceId] = workspaces;
    const keywordId = `${workspaceId}_kw1`;
    const held = await storeMatchedPost(sql, post('item1', new Date('2025-01-15T09:00:00Z')), [{ keywordId, workspaceId, fuzzy: false }]);
    expect(held).toEqual([]);
    const [fresh] = await storeMatchedPost(sql, post('item99', new Date(Date.now() + 3_600_000)), [{ keywordId, workspaceId, fuzzy: false }]);
    // Published "later" than matched: counted at its match time, so analytics' bound by match time still finds it; the post keeps its own time.
    expect(fresh.publishedAt.getTime()).toBeGreaterThan(fresh.createdAt.getTime());
    const [counted] = await sql<{ publishedAt: Date }[]>`select published_at from mentions where id = ${fresh.id}`;
    expect(counted.publishedAt).toEqual(fresh.createdAt);
    expect((await findMention(sql, workspaceId, fresh.id))?.id).toBe(fresh.id);
    expect((await findMention(sql, workspaceId, `mm_${workspaceId}_1_pst_1`))?.createdAt).toEqual(new Date(matchTimes[0]));
    expect(await findMention(sql, workspaces[1], fresh.id)).toBeUndefined();
  });

  /** The plan of the first page of the list with this filter, one line of text per row, with the settings given in force. */
  async function listPlan(filter: unknown, settings: Record<string, string> = {}): Promise<string[]> {
    const sent: { text: string; parameters: unknown[] }[] = [];
    const listening = postgres(url, {
      max: 1,
      onnotice: () => {},
      transform: { column: { from: postgres.toCamel } },
      debug: (_connection, text, parameters) => {
        if (text.includes('/* listMentionsPage */')) sent.push({ text, parameters: parameters as unknown[] });
      },
    });
    try {
      await listening`select 1`;
      await listMentions(listening as unknown as Sql, keywordDirectory, workspaces[0], { filter });
    } finally {
      await listening.end();
    }
    return sql.begin(async (tx) => {
      for (const [name, value] of Object.entries(settings)) await tx`select set_config(${name}, ${value}, true)`;
      const plan = await tx.unsafe<Record<string, string>[]>(`explain (costs off) ${sent[0].text}`, sent[0].parameters as never[]);
      return plan.map((line) => Object.values(line)[0]);
    });
  }

  it('plans the first page newest first over this month’s partition alone', async () => {
    const plan = await listPlan(undefined);
    const partitions = new Set(plan.flatMap((line) => line.match(/mentions_(\d{4}_\d{2}|later|earlier)\b/g) ?? []));
    expect([...partitions]).toEqual([`mentions_${new Date().toISOString().slice(0, 7).replace('-', '_')}`]);
  });

  it('can read the link hosts and one-language filters from their indexes, which hold only mentions with links (069, 074) and scored mentions (069)', async () => {
    // With sequential scans priced out and no workspace named (whose indexes the list could walk instead), the filter's own
    // index is the only way to the mentions linking to a host: a condition PostgreSQL could not prove to imply the index's
    // predicate would leave it unread.
    const links = await sql.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      return tx<Record<string, string>[]>`
        explain (costs off) select m.id from mentions m join posts p on p.id = m.post_id join authors a on a.id = p.author_id
        where ${mentionFilterSql(tx, { linkHosts: ['github.com'] })}`;
    });
    expect(links.map((line) => Object.values(line)[0]).join('\n')).toMatch(/Bitmap Index Scan on mentions_\w+_link_domains_idx/);
    const language = await listPlan({ languages: ['de'] }, { enable_seqscan: 'off' });
    expect(language.join('\n')).toMatch(/mentions_\w+_workspace_id_language_created_at_id_idx/);
  });

  it('makes months ahead, moving a mention stored past the last month into its own', async () => {
    const [workspaceId] = workspaces;
    const farAhead = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 5, 15));
    await sql`insert into posts (id, platform, external_id, url, text, published_at, author_id) values ('pst_ahead', 'hackernews', 'ahead', 'https://example.com/ahead', 'Acme', ${farAhead}, 'aut_1')`;
    await sql`insert into mention_keys (id, keyword_id, post_id, created_at) values ('mm_ahead', ${`${workspaceId}_kw2`}, 'pst_ahead', ${farAhead})`;
    await sql`
      insert into mentions (id, workspace_id, keyword_id, post_id, created_at, published_at, platform)
      values ('mm_ahead', ${workspaceId}, ${`${workspaceId}_kw2`}, 'pst_ahead', ${farAhead}, ${farAhead}, 'hackernews')`;
    const where = async () => (await sql<{ partition: string }[]>`select tableoid::regclass::text as partition from mentions where id = 'mm_ahead'`)[0].partition;
    expect(await where()).toBe('mentions_later');
    await makeMentionMonths(sql, farAhead);
    expect(await where()).toBe(`mentions_${farAhead.toISOString().slice(0, 7).replace('-', '_')}`);
    await makeMentionMonths(sql, farAhead);
    expect((await findMention(sql, workspaceId, 'mm_ahead'))?.createdAt).toEqual(farAhead);
  });

  it('refuses a mention naming a keyword of another workspace, as it refuses one naming no keyword', async () => {
    const [first, second] = workspaces;
    const insert = (id: string, keywordId: string) => sql`
      insert into mentions (id, workspace_id, keyword_id, post_id, created_at, published_at, platform)
      values (${id}, ${first}, ${keywordId}, 'pst_1', now(), now(), 'hackernews')`;
    await expect(insert('mm_elsewhere', `${second}_kw1`)).rejects.toMatchObject({ code: '23503', constraint_name: 'mentions_keyword_id_fkey' });
    await expect(insert('mm_nowhere', 'kw_gone')).rejects.toMatchObject({ code: '23503', constraint_name: 'mentions_keyword_id_fkey' });
    expect(await sql`select id from mentions where id in ('mm_elsewhere', 'mm_nowhere')`).toEqual([]);
  });

  it('refuses a mention naming no stored post, a post naming no stored author, changing either, and deleting what they name', async () => {
    const [first] = workspaces;
    const fkey = (constraint: string) => ({ code: '23503', constraint_name: constraint });
    await expect(sql`
      insert into mentions (id, workspace_id, keyword_id, post_id, created_at, published_at, platform)
      values ('mm_postless', ${first}, ${`${first}_kw1`}, 'pst_gone', now(), now(), 'hackernews')`).rejects.toMatchObject(fkey('mentions_post_id_fkey'));
    await expect(sql`
      insert into posts (id, platform, external_id, url, text, published_at, author_id)
      values ('pst_authorless', 'hackernews', 'authorless', 'https://example.com/a', 'Acme', now(), 'aut_gone')`).rejects.toMatchObject(fkey('posts_author_id_fkey'));
    await expect(sql`update mentions set post_id = 'pst_gone' where id = ${`mm_${first}_1_pst_1`}`).rejects.toMatchObject({ code: '23503' });
    await expect(sql`update posts set author_id = 'aut_gone' where id = 'pst_1'`).rejects.toMatchObject({ code: '23503' });
    await expect(sql`delete from posts where id = 'pst_1'`).rejects.toMatchObject(fkey('mentions_post_id_fkey'));
    await sql`insert into authors (id, platform, platform_id, name, handle, url) values ('aut_2', 'hackernews', 'dang', 'dang', 'dang', 'https://news.ycombinator.com/user?id=dang')`;
    await sql`insert into posts (id, platform, external_id, url, text, published_at, author_id) values ('pst_by_2', 'hackernews', 'by2', 'https://example.com/by2', 'Acme', now(), 'aut_2')`;
    await expect(sql`delete from authors where id = 'aut_2'`).rejects.toMatchObject(fkey('posts_author_id_fkey'));
    expect(await sql`select id from mentions where id = 'mm_postless' union all select id from posts where id = 'pst_authorless'`).toEqual([]);
    expect((await sql`select post_id from mentions where id = ${`mm_${first}_1_pst_1`}`)[0].postId).toBe('pst_1');
  });

  it('deletes a keyword’s mentions, their keys, comments, watches and feedback with the keyword, and a workspace’s with the workspace, keeping the ledger', async () => {
    const [first, second] = workspaces;
    const counts = async (workspaceId: string) =>
      (
        await sql<{ mentions: number; keys: number; comments: number; watches: number; feedback: number; charges: number }[]>`
          select (select count(*)::int from mentions where workspace_id = ${workspaceId}) as mentions,
                 (select count(*)::int from mention_keys where keyword_id like ${`${workspaceId}_%`}) as keys,
                 (select count(*)::int from comments where mention_id like ${`mm_${workspaceId}_%`}) as comments,
                 (select count(*)::int from comment_watches where mention_id like ${`mm_${workspaceId}_%`}) as watches,
                 (select count(*)::int from compat_feedback where mention_id like ${`mm_${workspaceId}_%`}) as feedback,
                 (select count(*)::int from ledger_entries where workspace_id = ${workspaceId} and kind = 'mention') as charges`
      )[0];
    expect(await counts(second)).toEqual({ mentions: 10, keys: 10, comments: 10, watches: 5, feedback: 5, charges: 10 });
    await sql`delete from keywords where id = ${`${second}_kw1`}`;
    expect(await counts(second)).toEqual({ mentions: 5, keys: 5, comments: 5, watches: 0, feedback: 5, charges: 10 });
    await sql`delete from workspaces where id = ${first}`;
    expect(await counts(first)).toMatchObject({ mentions: 0, keys: 0, comments: 0, watches: 0, feedback: 0 });
    expect(await counts(second)).toEqual({ mentions: 5, keys: 5, comments: 5, watches: 0, feedback: 5, charges: 10 });
  });
});
