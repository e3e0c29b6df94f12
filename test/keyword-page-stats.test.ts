import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../runtime/clock.ts';
import { chargeKeywordDay } from '../subgraphs/billing/wallet-store.ts';
import { saveClassification, storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { startTestEarshot, type TestEarshot, unreachableUpstreams } from './harness.ts';

const day = 86_400_000;
// Ten days on, past the week a new keyword is `new`, so health and noise judge the matches.
const clock = manualClock(new Date(Date.now() + 10 * day));
let earshot: TestEarshot;
let key: string;
let workspaceId: string;
let posts = 0;

const post = (): NormalizedPost => {
  posts += 1;
  return {
    platform: 'hackernews',
    externalId: `page-stats-${posts}`,
    url: `https://example.com/hn/${posts}`,
    text: `Acme post ${posts}`,
    publishedAt: new Date(),
    replyTo: null,
    links: [],
    author: { platformId: `author-${posts}`, name: `Author ${posts}`, handle: `author${posts}`, url: `https://example.com/u/${posts}`, avatarUrl: null, followers: null },
  };
};

/** Matches made now (real time), each scored as given. */
async function seedMatches(keywordId: string, relevances: number[]) {
  for (const relevance of relevances) {
    const [mention] = await storeMatchedPost(earshot.sql, post(), [{ keywordId, workspaceId, fuzzy: false }]);
    await saveClassification(earshot.sql, mention.id, { relevance, sentiment: 'neutral', intents: [], automated: false, language: 'en', note: '', priority: 0 }, new Date());
  }
}

const statsFields = `stats {
  mentions relevant last7d thisMonth lastMentionAt
  feedback { relevant notRelevant }
  noise { scored relevant noisy }
  health
  cost { keywordDays keywordCents billableMentions mentionCents billableComments commentCents totalCents }
}`;

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const answer = await earshot.graphql(query, variables, key);
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data;
}

beforeAll(async () => {
  earshot = await startTestEarshot({ env: unreachableUpstreams }, { clock });
  const created = await earshot.createWorkspace();
  key = created.apiKey;
  workspaceId = created.workspace.id;
});
afterAll(() => earshot?.stop());

describe('a page of keywords with their stats', () => {
  it('reads every keyword of every page as that keyword read alone does: counts, noise, health since a rule change, and cost', async () => {
    const ids: string[] = [];
    for (const term of ['Acme noisy', 'Acme changed', 'Acme quiet', 'Acme charged']) {
      const created = await earshot.rest('POST', '/v1/keywords', { key, body: { term } });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const [noisy, changed, , charged] = ids;
    await seedMatches(noisy, [80, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10]);
    await seedMatches(changed, [80, 80, 10]);
    // A change of rules: health judges only the matches made since, the stats' counts all of them.
    const patched = await earshot.rest('PATCH', `/v1/keywords/${changed}`, { key, body: { matching: { excludedTerms: ['spam'] } } });
    expect(patched.status).toBe(200);
    await seedMatches(changed, [80]);
    await seedMatches(charged, [70]);
    await chargeKeywordDay(earshot.sql, workspaceId, charged, clock.now().toISOString().slice(0, 10));

    const alone = new Map<string, unknown>();
    for (const id of ids) alone.set(id, (await graphql(`query ($id: ID!) { keyword(id: $id) { id ${statsFields} } }`, { id })).keyword);
    expect(alone.get(noisy)).toMatchObject({ stats: { mentions: 21, relevant: 1, noise: { scored: 21, relevant: 1, noisy: true } } });
    expect(alone.get(changed)).toMatchObject({ stats: { mentions: 4, relevant: 3, noise: { scored: 4, relevant: 3, noisy: false } } });
    expect(alone.get(charged)).toMatchObject({ stats: { mentions: 1, cost: { keywordDays: 1, totalCents: expect.any(Number) } } });
    expect((alone.get(charged) as { stats: { cost: { totalCents: number } } }).stats.cost.totalCents).toBeGreaterThan(0);

    // Pages of three and one: the second reads after a cursor, the first has a next page.
    const first = (await graphql(`{ keywords(first: 3) { nodes { id ${statsFields} } nextCursor } }`)).keywords;
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await graphql(`query ($after: String) { keywords(first: 3, after: $after) { nodes { id ${statsFields} } nextCursor } }`, { after: first.nextCursor })).keywords;
    expect(second.nextCursor).toBeNull();
    expect([...first.nodes, ...second.nodes]).toEqual(ids.map((id) => alone.get(id)));
  });
});
