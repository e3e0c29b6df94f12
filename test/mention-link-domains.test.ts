import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../runtime/database.ts';
import { migrate } from '../runtime/migrate.ts';
import { keywordDirectory } from '../subgraphs/keywords/index.ts';
import { listMentions } from '../subgraphs/mentions/index.ts';
import { filterMentionIds, storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { createTestDatabase } from './harness.ts';

/**
 * The `linkHosts` filters read a mention's own copy of its post's link
 * domains (migration 074): the copy must hold what the post holds for the
 * mentions stored before it, and for a mention stored now of a post
 * stored before with other links.
 */

let sql: Sql;
const workspaceId = 'org_links';

/** A workspace as migration 072 left one, with two keywords and a scored mention of each of three posts: linking to docs.github.com, to gitlab.com, to nothing. */
async function seedBeforeLinkDomains(): Promise<void> {
  await sql`insert into workspaces (id, name) values (${workspaceId}, 'Links')`;
  await sql`insert into wallets (workspace_id, credit_epoch, last_credit_fifteenths) values (${workspaceId}, 1, 8700)`;
  await sql`insert into keyword_groups (id, workspace_id, name, is_default) values ('grp_links', ${workspaceId}, 'Default', true)`;
  await sql`insert into keywords (id, workspace_id, group_id, term) values ('kw_links_1', ${workspaceId}, 'grp_links', 'Acme'), ('kw_links_2', ${workspaceId}, 'grp_links', 'Widget')`;
  await sql`insert into authors (id, platform, platform_id, name, handle, url) values ('aut_links', 'hackernews', 'pg', 'pg', 'pg', 'https://news.ycombinator.com/user?id=pg')`;
  await sql`
    insert into posts (id, platform, external_id, url, text, published_at, author_id, links)
    values ('pst_docs', 'hackernews', 'docs', 'https://example.com/docs', 'Acme docs', now() - interval '3 hours', 'aut_links', '{https://docs.github.com/acme}'),
           ('pst_lab', 'hackernews', 'lab', 'https://example.com/lab', 'Acme lab', now() - interval '2 hours', 'aut_links', '{https://www.gitlab.com/acme}'),
           ('pst_bare', 'hackernews', 'bare', 'https://example.com/bare', 'Acme bare', now() - interval '1 hour', 'aut_links', '{}')`;
  await sql`
    insert into mention_keys (id, keyword_id, post_id, created_at)
    select 'mm_' || id, 'kw_links_1', id, published_at + interval '1 minute' from posts where id like 'pst_%'`;
  await sql`
    insert into mentions (id, workspace_id, keyword_id, post_id, relevance, created_at, published_at, platform)
    select k.id, ${workspaceId}, k.keyword_id, k.post_id, 90, k.created_at, p.published_at, p.platform
    from mention_keys k join posts p on p.id = k.post_id`;
}

const post = (externalId: string, links: string[]): NormalizedPost => ({
  platform: 'hackernews',
  externalId,
  url: `https://news.ycombinator.com/item?id=${externalId}`,
  text: 'a post about Acme and Widget',
  publishedAt: new Date(),
  replyTo: null,
  links,
  author: { platformId: 'pg', name: 'pg', handle: 'pg', url: 'https://news.ycombinator.com/user?id=pg', avatarUrl: null, followers: null },
});

beforeAll(async () => {
  sql = connect(await createTestDatabase({ empty: true }), { max: 2 });
  await migrate(sql, { through: '072_keyword_match_days.sql' });
  await seedBeforeLinkDomains();
  await migrate(sql);
});
afterAll(() => sql?.end());

describe("a mention's link domains (migration 074)", () => {
  it('copies them to the mentions stored before, so the link host filters answer as they did from the posts', async () => {
    const listed = async (filter: Record<string, unknown>) =>
      (await listMentions(sql, keywordDirectory, workspaceId, { filter })).nodes.map((mention) => mention.postId);
    expect(await listed({ linkHosts: ['github.com'] })).toEqual(['pst_docs']);
    expect(await listed({ linkHosts: ['gitlab.com', 'docs.github.com'] })).toEqual(['pst_lab', 'pst_docs']);
    expect(await listed({ notLinkHosts: ['github.com'] })).toEqual(['pst_bare', 'pst_lab']);
    const copied = await sql<{ postId: string; linkDomains: string[] }[]>`select post_id, link_domains from mentions order by post_id`;
    expect(copied.map((row) => ({ ...row }))).toEqual([
      { postId: 'pst_bare', linkDomains: [] },
      { postId: 'pst_docs', linkDomains: ['com', 'docs.github.com', 'github.com'] },
      { postId: 'pst_lab', linkDomains: ['com', 'gitlab.com', 'www.gitlab.com'] },
    ]);
  });

  it("gives a mention stored now its post's domains, those of a post stored before with other links included", async () => {
    const [first] = await storeMatchedPost(sql, post('again', ['https://docs.rs/acme']), [{ keywordId: 'kw_links_1', workspaceId, fuzzy: false }]);
    // The platform lists the post again without its link: the stored post keeps its links, and its new mention the post's domains.
    const [second] = await storeMatchedPost(sql, post('again', []), [{ keywordId: 'kw_links_2', workspaceId, fuzzy: false }]);
    expect(second.links).toEqual(['https://docs.rs/acme']);
    const ids = [first.id, second.id];
    expect(await filterMentionIds(sql, workspaceId, ids, { linkHosts: ['docs.rs'] })).toEqual(ids);
    expect(await filterMentionIds(sql, workspaceId, ids, { notLinkHosts: ['docs.rs'] })).toEqual([]);
    const [fresh] = await storeMatchedPost(sql, post('linkless', []), [{ keywordId: 'kw_links_1', workspaceId, fuzzy: false }]);
    expect(await filterMentionIds(sql, workspaceId, [fresh.id], { notLinkHosts: ['docs.rs'] })).toEqual([fresh.id]);
  });
});
