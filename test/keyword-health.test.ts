import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NormalizedPost, Platform } from '../vocabulary/normalized-post.ts';
import { manualClock } from '../runtime/clock.ts';
import { setPausedForCap } from '../subgraphs/billing/keyword-accounting-store.ts';
import { judgeKeywordHealth } from '../subgraphs/keywords/keyword-health.ts';
import { markClassificationFailed, saveClassification, storeMatchedPost } from '../subgraphs/mentions/mention-store.ts';
import { startTestEarshot, type TestEarshot, unreachableUpstreams } from './harness.ts';

const day = 86_400_000;
const clock = manualClock(new Date());
let earshot: TestEarshot;
let posts = 0;


interface SeededMatch {
  platform?: Platform;
  /** A score, 'unscored' (never classified) or 'failed' (classification failed). */
  relevance: number | 'unscored' | 'failed';
}

const post = (platform: Platform): NormalizedPost => {
  posts += 1;
  return {
    platform,
    externalId: `health-${posts}`,
    url: `https://example.com/${platform}/${posts}`,
    text: `Acme post ${posts}`,
    publishedAt: new Date(),
    replyTo: null,
    links: [],
    author: { platformId: `author-${posts}`, name: `Author ${posts}`, handle: `author${posts}`, url: `https://example.com/u/${posts}`, avatarUrl: null, followers: null },
  };
};

/** Matches made now (real time), scored as given, as ingestion and scoring would leave them. */
async function seedMatches(keyword: { id: string; workspaceId: string }, matches: SeededMatch[]) {
  for (const match of matches) {
    const [mention] = await storeMatchedPost(earshot.sql, post(match.platform ?? 'hackernews'), [{ keywordId: keyword.id, workspaceId: keyword.workspaceId, fuzzy: false }]);
    if (match.relevance === 'failed') await markClassificationFailed(earshot.sql, [mention.id]);
    if (typeof match.relevance === 'number') {
      await saveClassification(
        earshot.sql,
        mention.id,
        { relevance: match.relevance, sentiment: 'neutral', intents: [], automated: false, language: 'en', note: '', priority: 0 },
        new Date(),
      );
    }
  }
}

const times = (count: number, match: SeededMatch) => Array.from({ length: count }, () => match);

async function newWorkspace() {
  const created = await earshot.createWorkspace();
  return { key: created.apiKey, workspaceId: created.workspace.id };
}

async function newKeyword(workspace: { key: string; workspaceId: string }, term: string) {
  const created = await earshot.rest('POST', '/v1/keywords', { key: workspace.key, body: { term } });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, workspaceId: workspace.workspaceId, key: workspace.key, record: created.body };
}

const health = (keyword: { id: string; key: string }, query = '') => earshot.rest('GET', `/v1/keywords/${keyword.id}/health${query}`, { key: keyword.key });
const statsHealth = async (keyword: { id: string; key: string }) =>
  (await earshot.rest('GET', `/v1/keywords/${keyword.id}`, { key: keyword.key })).body.stats.health;

const isoDay = (at: Date) => at.toISOString().slice(0, 10);
function windowOf(days: number) {
  const now = clock.now();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: isoDay(new Date(today - (days - 1) * day)), to: isoDay(now), days };
}

beforeAll(async () => {
  earshot = await startTestEarshot({ env: unreachableUpstreams }, { clock });
});
afterAll(() => earshot?.stop());
// Keywords are created now (real time) and judged ten days later, past the week a new keyword is `new`.
beforeEach(() => clock.set(new Date(Date.now() + 10 * day)));

describe("a new keyword's first reason", () => {
  it('says how old it is in words a person reads: today, 1 day ago, 3 days ago', () => {
    const now = new Date('2026-11-28T19:30:00Z');
    const reason = (ageMs: number) =>
      judgeKeywordHealth({ muted: false, pausedForBalance: false, pausedForNoise: false, pausedForCap: false, createdAt: new Date(now.getTime() - ageMs), judgedSince: null, relevant: 0, filtered: 0, windowDays: 30, now }).reasons[0];
    expect(reason(60_000)).toBe('New: created today; judged after a week.');
    expect(reason(day + 60_000)).toBe('New: created 1 day ago; judged after a week.');
    expect(reason(3 * day)).toBe('New: created 3 days ago; judged after a week.');
  });
});

describe('GET /v1/keywords/{id}/health', () => {
  it('answers the spec 2.5 record over the last 30 days by default', async () => {
    const keyword = await newKeyword(await newWorkspace(), 'Acme');
    await seedMatches(keyword, [
      { relevance: 85 },
      { relevance: 60 },
      { relevance: 'failed' },
      { platform: 'reddit', relevance: 10 },
      { platform: 'reddit', relevance: 'unscored' },
    ]);
    const response = await health(keyword);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      keyword: { id: keyword.id, term: 'Acme', group: keyword.record.group },
      window: windowOf(30),
      status: 'healthy',
      reasons: [
        'Healthy: 2 of 3 scored matches were relevant (67%).',
        '2 relevant and 1 filtered matches in the window.',
        'Most filtered matches came from Reddit: 1 of 1.',
        '2 matches not scored yet.',
      ],
      stats: {
        matches: 5,
        relevant: 2,
        filtered: 1,
        unscored: 2,
        noiseShare: 1 / 3,
        workspaceShare: 1,
        judgedSince: null,
        byPlatform: [
          { platform: 'hackernews', matches: 3, relevant: 2, filtered: 0, unscored: 1, noiseShare: 0 },
          { platform: 'reddit', matches: 2, relevant: 0, filtered: 1, unscored: 1, noiseShare: 1 },
        ],
      },
    });
    expect(await statsHealth(keyword)).toBe('healthy');
  });

  it('counts over `days` calendar days, today included', async () => {
    const keyword = await newKeyword(await newWorkspace(), 'Acme');
    await seedMatches(keyword, times(3, { relevance: 80 }));
    // The matches were made ten days before the clock: the 11th day back, not the 10th.
    const eleven = await health(keyword, '?days=11');
    expect(eleven.body.window).toEqual(windowOf(11));
    expect(eleven.body.stats).toMatchObject({ matches: 3, relevant: 3 });
    expect(eleven.body.status).toBe('healthy');
    const ten = await health(keyword, '?days=10');
    expect(ten.body.window).toEqual(windowOf(10));
    expect(ten.body.stats).toMatchObject({ matches: 0, relevant: 0, filtered: 0, unscored: 0, noiseShare: null, workspaceShare: null, byPlatform: [] });
    expect(ten.body.status).toBe('quiet');
    expect(ten.body.reasons[0]).toBe('Quiet: nothing relevant in the last 10 days.');
  });

  // The spec names the query only as "window in days": `window` is the same parameter.
  it('takes the window as `window` too, refusing it out of bounds or at odds with `days`', async () => {
    const keyword = await newKeyword(await newWorkspace(), 'Acme');
    expect((await health(keyword, '?window=7')).body.window).toEqual(windowOf(7));
    expect((await health(keyword, '?window=7&days=7')).body.window).toEqual(windowOf(7));
    for (const [query, message] of [
      ['?window=91', 'window: must be a whole number 1 to 90'],
      ['?window=7&days=8', 'window: days and window name the same window; send one'],
    ]) {
      const response = await health(keyword, query);
      expect({ status: response.status, body: response.body }, query).toEqual({
        status: 400,
        body: { error: { code: 'validation_error', message, requestId: expect.any(String), field: 'window' } },
      });
    }
  });

  it.each(['0', '91', 'abc', '1.5', '-3'])('refuses days=%s with validation_error', async (days) => {
    const keyword = await newKeyword(await newWorkspace(), 'Acme');
    const response = await health(keyword, `?days=${days}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'validation_error', message: 'days: must be a whole number 1 to 90', requestId: expect.any(String), field: 'days' },
    });
  });

  it('accepts the bounds 1 and 90, and checks `days` over GraphQL too', async () => {
    const keyword = await newKeyword(await newWorkspace(), 'Acme');
    expect((await health(keyword, '?days=1')).body.window).toEqual(windowOf(1));
    expect((await health(keyword, '?days=90')).body.window).toEqual(windowOf(90));
    const response = await earshot.graphql('query ($id: ID!) { keywordHealth(id: $id, days: 91) { status } }', { id: keyword.id }, keyword.key);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'validation_error', field: 'days' });
  });

  describe('status follows the rule of 2.1.4, as stats.health does', () => {
    it('new: under 7 days old', async () => {
      clock.set(new Date(Date.now() + 2.5 * day));
      const keyword = await newKeyword(await newWorkspace(), 'Acme');
      await seedMatches(keyword, times(3, { relevance: 80 }));
      const response = await health(keyword);
      expect(response.body.status).toBe('new');
      expect(response.body.reasons[0]).toBe('New: created 2 days ago; judged after a week.');
      expect(await statsHealth(keyword)).toBe('new');
    });

    it('noisy: 20 or more scored with under 30% relevant', async () => {
      const keyword = await newKeyword(await newWorkspace(), 'Acme');
      await seedMatches(keyword, [...times(5, { relevance: 70 }), ...times(15, { relevance: 5 })]);
      const response = await health(keyword);
      expect(response.body.status).toBe('noisy');
      expect(response.body.reasons[0]).toBe('Noisy: 5 of 20 scored matches were relevant (25%, under 30%).');
      expect(response.body.stats).toMatchObject({ matches: 20, relevant: 5, filtered: 15, noiseShare: 0.75 });
      expect(await statsHealth(keyword)).toBe('noisy');
    });

    it('not noisy at 30% relevant', async () => {
      const keyword = await newKeyword(await newWorkspace(), 'Acme');
      await seedMatches(keyword, [...times(6, { relevance: 70 }), ...times(14, { relevance: 5 })]);
      expect((await health(keyword)).body.status).toBe('healthy');
    });

    it('quiet: a week old with nothing relevant', async () => {
      const keyword = await newKeyword(await newWorkspace(), 'Acme');
      await seedMatches(keyword, times(4, { relevance: 20 }));
      const response = await health(keyword);
      expect(response.body.status).toBe('quiet');
      expect(response.body.reasons[0]).toBe('Quiet: nothing relevant in the last 30 days.');
      expect(await statsHealth(keyword)).toBe('quiet');
    });

    it('paused: muted, before anything else', async () => {
      const keyword = await newKeyword(await newWorkspace(), 'Acme');
      await seedMatches(keyword, [...times(2, { relevance: 70 }), ...times(18, { relevance: 5 })]);
      expect((await earshot.rest('PATCH', `/v1/keywords/${keyword.id}`, { key: keyword.key, body: { muted: true } })).status).toBe(200);
      const response = await health(keyword);
      expect(response.body.status).toBe('paused');
      expect(response.body.reasons[0]).toBe('Muted by a user.');
      expect(await statsHealth(keyword)).toBe('paused');
    });

    it('capped: at its cap, before noisy', async () => {
      const keyword = await newKeyword(await newWorkspace(), 'Acme');
      await seedMatches(keyword, [...times(2, { relevance: 70 }), ...times(18, { relevance: 5 })]);
      await setPausedForCap(earshot.sql, [keyword.id], true);
      const response = await health(keyword);
      expect(response.body.status).toBe('capped');
      expect(response.body.reasons[0]).toBe('At its mention cap: matching resumes when the next period starts.');
      expect(await statsHealth(keyword)).toBe('capped');
    });
  });

  it('judges only matches since a rule change inside the window, and shows when that was', async () => {
    const keyword = await newKeyword(await newWorkspace(), 'Acme');
    await seedMatches(keyword, [...times(2, { relevance: 70 }), ...times(18, { relevance: 5 })]);
    expect((await health(keyword)).body.status).toBe('noisy');

    const changedAt = clock.now();
    const patched = await earshot.rest('PATCH', `/v1/keywords/${keyword.id}`, { key: keyword.key, body: { matching: { excludedTerms: ['giveaway'] } } });
    expect(patched.status).toBe(200);
    const changed = await health(keyword);
    expect(changed.body.status).toBe('new');
    expect(changed.body.reasons).toEqual([
      'New rules: changed today with 0 scored matches since.',
      `Judged on matches since ${changedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, when its rules last changed.`,
      'Most filtered matches came from Hacker News: 18 of 18.',
    ]);
    // The counts still cover the whole window; only the status reads from the change.
    expect(changed.body.stats).toMatchObject({ matches: 20, relevant: 2, filtered: 18, judgedSince: changedAt.toISOString() });
    expect(await statsHealth(keyword)).toBe('new');

    clock.advance(8 * day);
    const later = await health(keyword);
    expect(later.body.status).toBe('quiet');
    expect(later.body.stats.judgedSince).toBe(changedAt.toISOString());
    expect(await statsHealth(keyword)).toBe('quiet');
    const outside = await health(keyword, '?days=7');
    expect(outside.body.stats).toMatchObject({ matches: 0, judgedSince: null });
  });

  it("gives the keyword's share of the workspace's matches, null when the workspace matched nothing", async () => {
    const workspace = await newWorkspace();
    const busy = await newKeyword(workspace, 'Acme');
    const calm = await newKeyword(workspace, 'Widget');
    expect((await health(busy)).body.stats).toMatchObject({ matches: 0, workspaceShare: null, noiseShare: null });
    await seedMatches(busy, times(3, { relevance: 80 }));
    await seedMatches(calm, [{ relevance: 'unscored' }]);
    expect((await health(busy)).body.stats.workspaceShare).toBe(0.75);
    const calmHealth = (await health(calm)).body.stats;
    expect(calmHealth).toMatchObject({ matches: 1, unscored: 1, workspaceShare: 0.25, noiseShare: null });
  });

  it("answers 404 for another workspace's keyword and an unknown id", async () => {
    const keyword = await newKeyword(await newWorkspace(), 'Acme');
    const stranger = await newWorkspace();
    const foreign = await earshot.rest('GET', `/v1/keywords/${keyword.id}/health`, { key: stranger.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 'not_found', message: 'Keyword not found', requestId: expect.any(String) } });
    const unknown = await earshot.rest('GET', '/v1/keywords/kw_00000000000000000000000000/health', { key: stranger.key });
    expect(unknown.status).toBe(404);
  });
});
