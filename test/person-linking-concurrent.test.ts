import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../runtime/database.ts';
import { newId } from '../runtime/ids.ts';
import { linkPeople } from '../subgraphs/mentions/index.ts';
import { storeMatchedPosts, storeMatchedPostsUnlinked } from '../subgraphs/mentions/mention-store.ts';
import type { NormalizedAuthor, Platform } from '../vocabulary/normalized-post.ts';
import { addKeywords, newWorkspace } from './billing-seed.ts';
import { eventually, openTestDatabase } from './harness.ts';

let sql: Sql;
beforeAll(async () => {
  ({ sql } = await openTestDatabase());
});
afterAll(async () => {
  await sql?.end();
});

describe('two polls linking accounts of one person at once', () => {
  // Polls store at once and link after their commits: one merged a person into an older one while the other, which had read the links before, waited to merge that person, found it gone and left its own account apart.
  it('leave every account of the person with one person', async () => {
    const { workspaceId } = await newWorkspace(sql, 'One person, four platforms');
    const [keyword] = await addKeywords(sql, workspaceId, 1);
    const post = (platform: Platform, author: NormalizedAuthor) => {
      const externalId = newId('post');
      return {
        post: { platform, externalId, url: `https://example.com/${externalId}`, text: 'a post about the keyword', publishedAt: new Date(), replyTo: null, links: [], author },
        matches: [{ keywordId: keyword.id, workspaceId, fuzzy: false }],
      };
    };
    const gina = { platformId: 'gina', name: 'Gina', handle: 'gina', url: 'https://github.com/gina', avatarUrl: null, followers: null };
    const hank = { platformId: 'hank', name: 'Hank', handle: 'hank', url: 'https://news.ycombinator.com/user?id=hank', avatarUrl: null, followers: null };
    const xavier = { platformId: 'xavier', name: 'Xavier', handle: 'xavier', url: 'https://reddit.com/user/xavier', avatarUrl: null, followers: null };
    await storeMatchedPosts(sql, [post('github', gina)]);
    await storeMatchedPosts(sql, [post('hackernews', hank)]);
    const personOf = async (authorId: string) =>
      (await sql<{ personId: string }[]>`select pa.person_id from person_accounts pa join authors a on a.id = pa.author_id
        where pa.workspace_id = ${workspaceId} and a.platform_id = ${authorId}`)[0].personId;
    const hankPerson = await personOf('hank');

    // Hank's person held, as a merge of a third poll would: both polls read their links, then queue for it, the first to link Hank to Gina first.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const holder = sql.begin(async (tx) => {
      await tx`select 1 from people where id = ${hankPerson} for update`;
      await released;
    });
    const waiting = (count: number) =>
      eventually(async () => (await sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)[0].n, (n) => n >= count, 10_000);

    const hankLinksGina = await sql.begin((tx) => storeMatchedPostsUnlinked(tx, [post('hackernews', { ...hank, links: ['https://github.com/gina'] })]));
    const first = linkPeople(sql, hankLinksGina.sightingsToLink);
    await waiting(1);
    const xavierLinksHank = await sql.begin((tx) => storeMatchedPostsUnlinked(tx, [post('reddit', { ...xavier, links: ['https://news.ycombinator.com/user?id=hank'] })]));
    const second = linkPeople(sql, xavierLinksHank.sightingsToLink);
    await waiting(2);
    release();
    await Promise.all([holder, first, second]);

    expect(new Set([await personOf('gina'), await personOf('hank'), await personOf('xavier')]).size).toBe(1);
  });
});
