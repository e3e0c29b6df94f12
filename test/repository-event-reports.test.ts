import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../runtime/database.ts';
import { createMatcher, loadActiveMatchRules, matchWithRepositoryEvents } from '../subgraphs/keywords/index.ts';
import { findRepositorySeen, saveRepositorySeen } from '../subgraphs/mentions/index.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { addKeywords, newWorkspace } from './billing-seed.ts';
import { openTestDatabase } from './harness.ts';

let sql: Sql;
beforeAll(async () => {
  ({ sql } = await openTestDatabase());
});
afterAll(async () => {
  await sql?.end();
});

const day = 86_400_000;

const repositoryPost = (stars: number): NormalizedPost => ({
  platform: 'github',
  externalId: 'R_widgets',
  url: 'https://github.com/acme/widgets',
  text: 'acme/widgets: tiny widgets for everyone',
  publishedAt: new Date(),
  replyTo: null,
  links: [],
  author: { platformId: 'acme', name: 'acme', handle: 'acme', url: 'https://github.com/acme', avatarUrl: null, followers: null },
  repository: { fullName: 'acme/widgets', stars, starsLastWeek: null, createdAt: new Date(Date.now() - 3 * day) },
});

describe('GitHub polls that see one repository at once', () => {
  // Polls of a batch run at once: each read the repository as last seen before any of them wrote, and each reported traction.
  it('report its traction once, by one poll', async () => {
    const { workspaceId } = await newWorkspace(sql, 'Watching repositories');
    const [keyword] = await addKeywords(sql, workspaceId, 1, { term: 'widgets', platforms: ['github'] });
    const { rules, filters } = await loadActiveMatchRules(sql, { keywordIds: [keyword.id], platform: 'github' });
    const matcher = createMatcher(rules, filters);
    const now = new Date();
    await saveRepositorySeen(sql, {
      fullName: 'acme/widgets',
      firstSeenAt: new Date(now.getTime() - day),
      stars: 5,
      weekAgoStars: 5,
      weekAgoAt: new Date(now.getTime() - day),
      lastSnapshotAt: new Date(now.getTime() - day),
      tractionReported: false,
      milestoneReported: 0,
    });

    // Twelve polls at once: each passes traction (10 stars within 30 days of first sight) if it reads the state before the others wrote.
    const polls = Array.from({ length: 12 }, (_, i) => repositoryPost(12 + i));
    const matched = await Promise.all(polls.map(async (post) => (await matchWithRepositoryEvents(sql, matcher, [post], now))(post)));

    expect(matched.filter((matches) => matches.length > 0)).toEqual([[{ keywordId: keyword.id, workspaceId, fuzzy: false }]]);
    expect(await findRepositorySeen(sql, 'acme/widgets')).toMatchObject({ tractionReported: true, milestoneReported: 0 });
  });
});
