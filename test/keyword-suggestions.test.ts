import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NormalizedPost, type Platform, reviewPlatforms, searchPlatforms } from '../vocabulary/normalized-post.ts';
import { findKeyword } from '../subgraphs/keywords/keyword-store.ts';
import { matchRulesOf } from '../subgraphs/keywords/match-rules-store.ts';
import { compileKeywordRules, type KeywordMatchRules, keywordRulesPass } from '../subgraphs/keywords/matching/keyword-rules.ts';
import { PreparedPost } from '../subgraphs/keywords/matching/prepared-post.ts';
import { type ScoredMatch, suggestRuleChanges } from '../subgraphs/keywords/rule-suggestions.ts';
import { saveClassification, storeMatchedPost, updateMentions } from '../subgraphs/mentions/mention-store.ts';
import { keyword as keywordRules } from './matching-fixtures.ts';
import { startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let key: string;
let workspaceId: string;
let posts = 0;

const unreachableUpstreams = Object.fromEntries(
  [...searchPlatforms, ...reviewPlatforms, 'reddit_auth'].map((name) => [`EARSHOT_UPSTREAM_${name.toUpperCase()}`, 'http://127.0.0.1:9']),
);

/** A word no other seeded post holds, so only the words a test means to repeat are frequent. */
const filler = () => `lorem${posts}`;

function post(platform: Platform, text: string, author?: { handle: string }): NormalizedPost {
  posts += 1;
  const handle = author?.handle ?? `person${posts}`;
  return {
    platform,
    externalId: `suggest-${posts}`,
    url: `https://example.com/${platform}/${posts}`,
    text,
    publishedAt: new Date(),
    replyTo: null,
    links: [],
    subreddit: platform === 'reddit' ? 'startups' : null,
    author: { platformId: handle, name: `Person ${handle}`, handle, url: `https://example.com/u/${handle}`, avatarUrl: null, followers: null },
  };
}

interface Seed {
  post: NormalizedPost;
  /** Null: never scored. */
  relevance: number | null;
  verdict?: boolean;
}

/** What the seed counts as: a verdict overrides the score (spec 2.4). */
const isRelevant = (seed: Seed) => seed.verdict ?? (seed.relevance ?? 0) >= 40;

async function store(keywordId: string, seeds: Seed[]) {
  for (const seed of seeds) {
    const [mention] = await storeMatchedPost(earshot.sql, seed.post, [{ keywordId, workspaceId, fuzzy: false }]);
    if (seed.relevance !== null) {
      await saveClassification(
        earshot.sql,
        mention.id,
        { relevance: seed.relevance, sentiment: 'neutral', intents: [], automated: false, language: 'en', note: '', priority: 0 },
        new Date(),
      );
    }
    if (seed.verdict !== undefined) await updateMentions(earshot.sql, workspaceId, [mention.id], { verdictRelevant: seed.verdict });
  }
}

const noise = (post: NormalizedPost, relevance = 10): Seed => ({ post, relevance });
const relevant = (post: NormalizedPost, relevance = 85): Seed => ({ post, relevance });
const times = <T,>(count: number, make: () => T) => Array.from({ length: count }, make);

/** Recounts with the matcher what a rule change drops among the seeded, scored matches: kept before, rejected after. */
function droppedBetween(before: KeywordMatchRules, after: KeywordMatchRules, seeds: Seed[]) {
  const [was, is] = [compileKeywordRules(before), compileKeywordRules(after)];
  const dropped = { noiseRemoved: 0, relevantRemoved: 0 };
  for (const seed of seeds.filter((candidate) => candidate.relevance !== null || candidate.verdict !== undefined)) {
    const prepared = new PreparedPost(seed.post);
    if (!keywordRulesPass(was, prepared) || keywordRulesPass(is, prepared)) continue;
    if (isRelevant(seed)) dropped.relevantRemoved += 1;
    else dropped.noiseRemoved += 1;
  }
  return dropped;
}

beforeAll(async () => {
  earshot = await startTestEarshot({ env: unreachableUpstreams });
  const created = await earshot.createWorkspace('Acme');
  key = created.apiKey;
  workspaceId = created.workspace.id;
});
afterAll(() => earshot?.stop());

describe('GET /v1/keywords/{id}/suggestions', () => {
  it('suggests exact rule changes that remove mostly noise, and applying each removes exactly its effect', async () => {
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Acme', matching: { excludedTerms: ['spam'] } } });
    expect(keyword.status).toBe(201);
    const keywordId: string = keyword.body.id;
    const seeds: Seed[] = [
      // Ten giveaway posts: noise, one of them by a user's verdict against a high score.
      ...times(9, () => noise(post('hackernews', `Acme giveaway ${filler()}`))),
      { post: post('hackernews', `Acme giveaway ${filler()}`), relevance: 90, verdict: false },
      // One relevant post says giveaway too: 1 of 11 removed, within the tenth allowed.
      relevant(post('hackernews', 'Acme giveaway for open source maintainers')),
      ...times(5, () => relevant(post('hackernews', `Acme ${filler()}`))),
      { post: post('hackernews', `Acme ${filler()}`), relevance: 20, verdict: true },
      // One account posting noise on reddit, where others post relevant things.
      ...times(4, () => noise(post('reddit', `${filler()} Acme`, { handle: 'dealbot' }))),
      ...times(3, () => relevant(post('reddit', `Acme ${filler()}`))),
      // YouTube brings nothing but noise.
      ...times(3, () => noise(post('youtube', `Acme ${filler()}`))),
      // Already excluded by the keyword's rules: not measured again.
      noise(post('hackernews', `Acme spam giveaway ${filler()}`)),
      // Not scored yet: suggestions read scored matches only.
      ...times(3, () => ({ post: post('hackernews', `Acme giveaway ${filler()}`), relevance: null })),
    ];
    await store(keywordId, seeds);

    const response = await earshot.rest('GET', `/v1/keywords/${keywordId}/suggestions`, { key });
    expect(response.status).toBe(200);
    const sample = { noise: 17, relevant: 10 };
    expect(response.body).toEqual({
      data: [
        {
          type: 'excluded_terms',
          values: ['giveaway'],
          why: 'Excluding "giveaway" would have dropped 11 scored match(es) of the last 30 days: 10 noise, 1 relevant; about $0.08 of noise saved.',
          patch: { matching: { excludedTerms: ['spam', 'giveaway'] } },
          effect: { noiseRemoved: 10, relevantRemoved: 1, centsSaved: 8, sample: { ...sample, noiseRemoved: 10, relevantRemoved: 1 }, exact: true },
          source: 'rules',
        },
        {
          type: 'excluded_authors',
          values: ['reddit:dealbot'],
          why: 'Excluding the author reddit:dealbot would have dropped 4 scored match(es) of the last 30 days: all noise; about $0.03 of noise saved.',
          patch: { matching: { excludedAuthors: ['reddit:dealbot'] } },
          effect: { noiseRemoved: 4, relevantRemoved: 0, centsSaved: 3, sample: { ...sample, noiseRemoved: 4, relevantRemoved: 0 }, exact: true },
          source: 'rules',
        },
        {
          type: 'platforms',
          values: ['youtube'],
          why: 'Every scored match from youtube was noise: dropping the platform would have removed 3 scored match(es) of the last 30 days; about $0.02 of noise saved.',
          patch: { platforms: searchPlatforms.filter((platform) => platform !== 'youtube') },
          effect: { noiseRemoved: 3, relevantRemoved: 0, centsSaved: 2, sample: { ...sample, noiseRemoved: 3, relevantRemoved: 0 }, exact: true },
          source: 'rules',
        },
      ],
    });

    for (const suggestion of response.body.data) {
      const before = matchRulesOf((await findKeyword(earshot.sql, workspaceId, keywordId))!);
      const patched = await earshot.rest('PATCH', `/v1/keywords/${keywordId}`, { key, body: suggestion.patch });
      expect(patched.status).toBe(200);
      const after = matchRulesOf((await findKeyword(earshot.sql, workspaceId, keywordId))!);
      expect(droppedBetween(before, after, seeds)).toEqual({ noiseRemoved: suggestion.effect.noiseRemoved, relevantRemoved: suggestion.effect.relevantRemoved });
    }
    const remaining = await earshot.rest('GET', `/v1/keywords/${keywordId}/suggestions`, { key });
    expect(remaining.body).toEqual({ data: [] });
  });

  it('suggests nothing for a keyword without scored matches', async () => {
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Quietly' } });
    await store(keyword.body.id, times(5, () => ({ post: post('hackernews', `Quietly giveaway ${filler()}`), relevance: null })));
    const response = await earshot.rest('GET', `/v1/keywords/${keyword.body.id}/suggestions`, { key });
    expect(response.body).toEqual({ data: [] });
  });

  it("answers 404 for another workspace's keyword", async () => {
    const keyword = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'Private' } });
    const stranger = await earshot.createWorkspace('Stranger');
    const response = await earshot.rest('GET', `/v1/keywords/${keyword.body.id}/suggestions`, { key: stranger.apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 'not_found', message: 'Keyword not found', requestId: expect.any(String) } });
  });
});

describe('suggestRuleChanges', () => {
  const rules = (overrides: Partial<KeywordMatchRules> = {}): KeywordMatchRules =>
    keywordRules('kw_test', 'Acme Cloud', { workspaceId: 'org_test', ...overrides });
  const scored = (text: string, isRelevant: boolean, platform: Platform = 'hackernews'): ScoredMatch => ({ relevant: isRelevant, post: post(platform, text) });
  const windowOf = (matches: ScoredMatch[]) => ({
    days: 30,
    relevant: matches.filter((match) => match.relevant).length,
    noise: matches.filter((match) => !match.relevant).length,
  });

  it("never offers the keyword's own words, even when every match is noise", () => {
    const matches = times(5, () => scored(`Acme Cloud outage ${filler()}`, false));
    const suggestions = suggestRuleChanges(rules(), { matches, window: windowOf(matches) });
    expect(suggestions.map((suggestion) => [suggestion.type, suggestion.values])).toEqual([
      ['excluded_terms', ['outage']],
      ['platforms', ['hackernews']],
    ]);
  });

  it('leaves out a term when relevant matches are over a tenth of what it removes', () => {
    const matches = [...times(8, () => scored(`Acme Cloud promo ${filler()}`, false)), ...times(2, () => scored(`Acme Cloud promo ${filler()}`, true))];
    expect(suggestRuleChanges(rules(), { matches, window: windowOf(matches) }).filter((suggestion) => suggestion.type === 'excluded_terms')).toEqual([]);
  });

  it('reads case as the keyword does, and prefers the shortest term clear of the keyword among equals', () => {
    const matches = [
      ...times(4, () => scored(`Acme Cloud Free Trial ${filler()}`, false)),
      ...times(3, () => scored(`Acme Cloud free lunch ${filler()}`, true)),
      ...times(3, () => scored(`Acme Cloud trial run ${filler()}`, true)),
      ...times(3, () => scored(`Acme Cloud ${filler()}`, true, 'reddit')),
    ];
    const caseSensitive = suggestRuleChanges(rules({ caseSensitive: true }), { matches, window: windowOf(matches) });
    expect(caseSensitive.map((suggestion) => suggestion.values)).toEqual([['Free']]);
    const anyCase = suggestRuleChanges(rules(), { matches, window: windowOf(matches) });
    expect(anyCase.map((suggestion) => suggestion.values)).toEqual([['free trial']]);
  });

  it('scales the effect to the window when only the newest matches were read, and says it is not exact', () => {
    const matches = [...times(4, () => scored(`Acme Cloud giveaway ${filler()}`, false)), ...times(4, () => scored(`Acme Cloud ${filler()}`, true))];
    const [suggestion] = suggestRuleChanges(rules(), { matches, window: { days: 30, noise: 40, relevant: 40 } });
    expect(suggestion.effect).toEqual({
      noiseRemoved: 40,
      relevantRemoved: 0,
      centsSaved: 32,
      sample: { noiseRemoved: 4, noise: 4, relevantRemoved: 0, relevant: 4 },
      exact: false,
    });
    expect(suggestion.why).toContain('(estimated from the newest)');
  });
});
