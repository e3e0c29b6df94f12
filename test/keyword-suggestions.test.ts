import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NormalizedPost, type Platform, searchPlatforms } from '../vocabulary/normalized-post.ts';
import { findKeyword } from '../subgraphs/keywords/keyword-store.ts';
import { matchRulesOf } from '../subgraphs/keywords/match-rules-store.ts';
import { compileKeywordRules, type KeywordMatchRules, keywordRulesPass } from '../subgraphs/keywords/matching/keyword-rules.ts';
import { PreparedPost } from '../subgraphs/keywords/matching/prepared-post.ts';
import { type KeywordSuggestion, type ScoredMatch, suggestRuleChanges } from '../subgraphs/keywords/rule-suggestions.ts';
import { saveClassification, storeMatchedPost, updateMentions } from '../subgraphs/mentions/mention-store.ts';
import { type ChatCompletionRequest, completion, startFakeChatCompletions } from './fake-upstreams/chat-completions.ts';
import type { FakeResponse, FakeUpstream } from './fake-upstreams/fake-server.ts';
import { keyword as keywordRules } from './matching-fixtures.ts';
import { recordingLogger, startTestEarshot, type TestEarshot, unreachableUpstreams } from './harness.ts';

let earshot: TestEarshot;
let key: string;
let workspaceId: string;
let posts = 0;


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

async function store(keywordId: string, seeds: Seed[], inWorkspace = workspaceId) {
  for (const seed of seeds) {
    const [mention] = await storeMatchedPost(earshot.sql, seed.post, [{ keywordId, workspaceId: inWorkspace, fuzzy: false }]);
    if (seed.relevance !== null) {
      await saveClassification(
        earshot.sql,
        mention.id,
        { relevance: seed.relevance, sentiment: 'neutral', intents: [], automated: false, language: 'en', note: '', priority: 0 },
        new Date(),
      );
    }
    if (seed.verdict !== undefined) await updateMentions(earshot.sql, inWorkspace, [mention.id], { verdictRelevant: seed.verdict });
  }
}

const noise = (post: NormalizedPost, relevance = 10): Seed => ({ post, relevance });
const relevant = (post: NormalizedPost, relevance = 85): Seed => ({ post, relevance });
const times = <T,>(count: number, make: () => T) => Array.from({ length: count }, make);

/** Ten relevant matches about deploys and latency, eight noise about launches and gum: the same for every workspace they seed. */
function orbitSeeds(term: string): Seed[] {
  return [
    ...times(6, () => relevant(post('hackernews', `${term} deploy ${filler()}`))),
    ...times(4, () => relevant(post('reddit', `${term} latency ${filler()}`))),
    ...times(5, () => noise(post('hackernews', `${term} satellite launch ${filler()}`))),
    ...times(3, () => noise(post('reddit', `${term} gum ${filler()}`))),
  ];
}

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
          why: 'Excluding "giveaway" would have dropped 11 scored matches of the last 30 days: 10 noise, 1 relevant; about $0.08 of noise saved.',
          patch: { matching: { excludedTerms: ['spam', 'giveaway'] } },
          effect: { noiseRemoved: 10, relevantRemoved: 1, centsSaved: 8, sample: { ...sample, noiseRemoved: 10, relevantRemoved: 1 }, exact: true },
          source: 'rules',
        },
        {
          type: 'excluded_authors',
          values: ['reddit:dealbot'],
          why: 'Excluding the author reddit:dealbot would have dropped 4 scored matches of the last 30 days: all noise; about $0.03 of noise saved.',
          patch: { matching: { excludedAuthors: ['reddit:dealbot'] } },
          effect: { noiseRemoved: 4, relevantRemoved: 0, centsSaved: 3, sample: { ...sample, noiseRemoved: 4, relevantRemoved: 0 }, exact: true },
          source: 'rules',
        },
        {
          type: 'platforms',
          values: ['youtube'],
          why: 'Every scored match from YouTube was noise: dropping the platform would have removed 3 scored matches of the last 30 days; about $0.02 of noise saved.',
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

  it('suggests terms to require and a context written with the company profile, each patch applying as is', async () => {
    const orbit = await earshot.createWorkspace('Orbit');
    expect((await earshot.rest('PATCH', '/v1/company-profile', { key: orbit.apiKey, body: { name: 'Orbit', website: 'orbit.dev' } })).status).toBe(200);
    const keyword = await earshot.rest('POST', '/v1/keywords', { key: orbit.apiKey, body: { term: 'Orbit' } });
    const keywordId: string = keyword.body.id;
    const seeds = orbitSeeds('Orbit');
    await store(keywordId, seeds, orbit.workspace.id);

    const response = await earshot.rest('GET', `/v1/keywords/${keywordId}/suggestions`, { key: orbit.apiKey });
    const sample = { noise: 8, relevant: 10 };
    const sentence = '"Orbit" means Orbit (orbit.dev): posts about deploy or latency, not about launch, satellite or gum.';
    expect(response.body).toEqual({
      data: [
        {
          type: 'required_terms',
          values: ['deploy', 'latency'],
          why: 'Requiring any of "deploy" or "latency" would have dropped 8 scored matches of the last 30 days: all noise; about $0.06 of noise saved.',
          patch: { matching: { requiredTerms: ['deploy', 'latency'] } },
          effect: { noiseRemoved: 8, relevantRemoved: 0, centsSaved: 6, sample: { ...sample, noiseRemoved: 8, relevantRemoved: 0 }, exact: true },
          source: 'rules',
        },
        {
          type: 'excluded_terms',
          values: ['launch'],
          why: 'Excluding "launch" would have dropped 5 scored matches of the last 30 days: all noise; about $0.04 of noise saved.',
          patch: { matching: { excludedTerms: ['launch'] } },
          effect: { noiseRemoved: 5, relevantRemoved: 0, centsSaved: 4, sample: { ...sample, noiseRemoved: 5, relevantRemoved: 0 }, exact: true },
          source: 'rules',
        },
        {
          type: 'excluded_terms',
          values: ['gum'],
          why: 'Excluding "gum" would have dropped 3 scored matches of the last 30 days: all noise; about $0.02 of noise saved.',
          patch: { matching: { excludedTerms: ['gum'] } },
          effect: { noiseRemoved: 3, relevantRemoved: 0, centsSaved: 2, sample: { ...sample, noiseRemoved: 3, relevantRemoved: 0 }, exact: true },
          source: 'rules',
        },
        {
          type: 'context',
          values: [sentence],
          why: 'Written from what sets the 10 relevant scored matches of the last 30 days apart from the 8 noise and the company profile: "deploy" and "latency" mark relevant ones, "launch", "satellite" and "gum" noise. The classifier reads it for this keyword only.',
          patch: { context: sentence },
          effect: null,
          source: 'rules',
        },
      ],
    });

    const [required, , , context] = response.body.data;
    const before = matchRulesOf((await findKeyword(earshot.sql, orbit.workspace.id, keywordId))!);
    expect((await earshot.rest('PATCH', `/v1/keywords/${keywordId}`, { key: orbit.apiKey, body: required.patch })).status).toBe(200);
    const after = matchRulesOf((await findKeyword(earshot.sql, orbit.workspace.id, keywordId))!);
    expect(after).toMatchObject({ requiredTerms: ['deploy', 'latency'], requiredMode: 'any' });
    expect(droppedBetween(before, after, seeds)).toEqual({ noiseRemoved: 8, relevantRemoved: 0 });
    const patched = await earshot.rest('PATCH', `/v1/keywords/${keywordId}`, { key: orbit.apiKey, body: context.patch });
    expect(patched).toMatchObject({ status: 200, body: { context: sentence } });
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
    const ruleChanges = (suggestions: KeywordSuggestion[]) => suggestions.filter((suggestion) => suggestion.type !== 'context').map((suggestion) => suggestion.values);
    expect(ruleChanges(suggestRuleChanges(rules({ caseSensitive: true }), { matches, window: windowOf(matches) }))).toEqual([['Free']]);
    expect(ruleChanges(suggestRuleChanges(rules(), { matches, window: windowOf(matches) }))).toEqual([['free trial']]);
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

  it('suggests the fewest terms to require that keep nine in ten relevant matches, and applying them drops exactly its effect', () => {
    const matches = [
      ...times(5, () => scored(`Acme Cloud deploy pipeline ${filler()}`, true)),
      ...times(4, () => scored(`Acme Cloud kubernetes cluster ${filler()}`, true)),
      scored(`Acme Cloud ${filler()}`, true),
      ...times(8, () => scored(`Acme Cloud ${filler()}`, false)),
      scored(`Acme Cloud deploy ${filler()}`, false),
    ];
    const before = rules();
    const suggestions = suggestRuleChanges(before, { matches, window: windowOf(matches) });
    expect(suggestions).toEqual([
      {
        type: 'required_terms',
        values: ['pipeline', 'cluster'],
        why: 'Requiring any of "pipeline" or "cluster" would have dropped 10 scored matches of the last 30 days: 9 noise, 1 relevant; about $0.07 of noise saved.',
        patch: { matching: { requiredTerms: ['pipeline', 'cluster'] } },
        effect: { noiseRemoved: 9, relevantRemoved: 1, centsSaved: 7, sample: { noiseRemoved: 9, noise: 9, relevantRemoved: 1, relevant: 10 }, exact: true },
        source: 'rules',
      },
    ]);
    const after = { ...before, requiredTerms: ['pipeline', 'cluster'] };
    const seeds = matches.map((match) => ({ post: match.post as NormalizedPost, relevance: match.relevant ? 85 : 10 }));
    expect(droppedBetween(before, after, seeds)).toEqual({ noiseRemoved: 9, relevantRemoved: 1 });
  });

  it('switches an empty `all` list to `any` for several required terms, adds one term to a full `all` list, and none to an `any` list', () => {
    const matches = [
      ...times(5, () => scored(`Acme Cloud hosting pipeline ${filler()}`, true)),
      ...times(5, () => scored(`Acme Cloud hosting cluster ${filler()}`, true)),
      ...times(6, () => scored(`Acme Cloud hosting ${filler()}`, false)),
    ];
    const window = windowOf(matches);
    const required = (overrides: Partial<KeywordMatchRules>) =>
      suggestRuleChanges(rules(overrides), { matches, window }).filter((suggestion) => suggestion.type === 'required_terms').map((suggestion) => suggestion.patch);
    expect(required({ requiredMode: 'all' })).toEqual([{ matching: { requiredTerms: ['cluster', 'pipeline'], requiredMode: 'any' } }]);
    // Every match holds "hosting" already; requiring "pipeline" as well drops half the relevant ones: over the tenth allowed.
    expect(required({ requiredTerms: ['hosting'], requiredMode: 'all' })).toEqual([]);
    expect(required({ requiredTerms: ['hosting'], requiredMode: 'any' })).toEqual([]);
    const mostlyPipeline = [...matches.slice(0, 5), ...matches.slice(10), ...times(5, () => scored(`Acme Cloud hosting pipeline ${filler()}`, true))];
    expect(
      suggestRuleChanges(rules({ requiredTerms: ['hosting'], requiredMode: 'all' }), { matches: mostlyPipeline, window: windowOf(mostlyPipeline) }).map((suggestion) => suggestion.patch),
    ).toEqual([{ matching: { requiredTerms: ['hosting', 'pipeline'] } }]);
  });

  it('offers no required terms when they would keep under nine in ten relevant matches', () => {
    const matches = [
      ...times(6, () => scored(`Acme Cloud pipeline ${filler()}`, true)),
      ...times(4, () => scored(`Acme Cloud ${filler()}`, true)),
      ...times(8, () => scored(`Acme Cloud ${filler()}`, false)),
    ];
    expect(suggestRuleChanges(rules(), { matches, window: windowOf(matches) })).toEqual([]);
  });

  it('writes a context sentence from what marks relevant matches and noise and from the company profile, once', () => {
    const matches = [
      ...times(4, () => scored(`Acme Cloud deploy ${filler()}`, true)),
      ...times(3, () => scored(`Acme Cloud latency ${filler()}`, true)),
      ...times(4, () => scored(`Acme Cloud weather forecast ${filler()}`, false)),
      ...times(3, () => scored(`Acme Cloud rain ${filler()}`, false)),
    ];
    const subject = { kind: 'brand' as const, context: null, company: { name: 'Acme', website: 'https://www.acme.dev' } };
    const suggestions = suggestRuleChanges(rules(), { matches, window: windowOf(matches) }, subject);
    const sentence = '"Acme Cloud" means Acme (acme.dev): posts about deploy or latency, not about forecast, weather or rain.';
    expect(suggestions.map((suggestion) => [suggestion.type, suggestion.values])).toEqual([
      ['required_terms', ['deploy', 'latency']],
      ['excluded_terms', ['forecast']],
      ['excluded_terms', ['rain']],
      ['context', [sentence]],
    ]);
    expect(suggestions.at(-1)).toEqual({
      type: 'context',
      values: [sentence],
      why: 'Written from what sets the 7 relevant scored matches of the last 30 days apart from the 7 noise and the company profile: "deploy" and "latency" mark relevant ones, "forecast", "weather" and "rain" noise. The classifier reads it for this keyword only.',
      patch: { context: sentence },
      effect: null,
      source: 'rules',
    });
    expect(suggestRuleChanges(rules(), { matches, window: windowOf(matches) }, { ...subject, context: sentence }).map((suggestion) => suggestion.type)).not.toContain('context');
    const bare = suggestRuleChanges(rules(), { matches, window: windowOf(matches) }, { kind: 'topic', context: null, company: { name: null, website: null } });
    expect(bare.at(-1)!.values).toEqual(['"Acme Cloud": posts about deploy or latency, not about forecast, weather or rain.']);
  });
});

describe('suggestions of a language model (EARSHOT_CLASSIFIER_URL)', () => {
  const modelKey = 'sk-test-suggestions';
  let model: FakeUpstream & { baseUrl: string };
  // A scoring job of the second Earshot may ask the model before a test sets its answer.
  let answer: (request: ChatCompletionRequest) => FakeResponse = () => ({ status: 503, body: { error: { message: 'no answer set yet' } } });
  let withModel: TestEarshot;
  const logged = recordingLogger();

  beforeAll(async () => {
    model = await startFakeChatCompletions({ apiKey: modelKey, answer: (request) => answer(request) });
    withModel = await startTestEarshot(
      { env: { ...unreachableUpstreams, EARSHOT_CLASSIFIER_URL: model.baseUrl, EARSHOT_CLASSIFIER_KEY: modelKey } },
      { databaseUrl: earshot.databaseUrl, log: logged.log },
    );
  });
  afterAll(async () => {
    await withModel?.stop();
    await model?.close();
  });

  async function seededKeyword(term: string) {
    const created = await earshot.createWorkspace(term);
    const keyword = await withModel.rest('POST', '/v1/keywords', { key: created.apiKey, body: { term } });
    await store(keyword.body.id, orbitSeeds(term), created.workspace.id);
    return { key: created.apiKey, keywordId: keyword.body.id as string };
  }

  it("adds the model's suggestions as `ai` after the rules', measured the same way, and drops those that break a rule", async () => {
    const { key: cometKey, keywordId } = await seededKeyword('Comet');
    const context = 'Comet is the deploy platform at comet.dev, not the object in the sky.';
    answer = () =>
      completion(
        JSON.stringify({
          suggestions: [
            { type: 'excluded_terms', values: ['satellite', ' sky '], why: 'Posts about satellites are about space, not the product.' },
            { type: 'required_terms', values: ['deploy', 'latency', 'uptime'], why: 'Relevant posts are about running services.' },
            { type: 'context', values: [context], why: 'The noise is about astronomy.' },
            { type: 'platforms', values: ['myspace'], why: 'Not a platform Earshot searches.' },
            { type: 'excluded_terms', values: ['comet'], why: 'Would drop every match.' },
          ],
        }),
      );
    const response = await withModel.rest('GET', `/v1/keywords/${keywordId}/suggestions`, { key: cometKey });
    expect(response.status).toBe(200);
    const sample = { noise: 8, relevant: 10 };
    const rulesOnly = await earshot.rest('GET', `/v1/keywords/${keywordId}/suggestions`, { key: cometKey });
    expect(rulesOnly.body.data.map((suggestion: KeywordSuggestion) => suggestion.source)).toEqual(['rules', 'rules', 'rules', 'rules']);
    expect(response.body.data).toEqual([
      ...rulesOnly.body.data,
      {
        type: 'excluded_terms',
        values: ['satellite', 'sky'],
        why: 'Posts about satellites are about space, not the product. Applied as is, it would have dropped 5 scored matches of the last 30 days: all noise; about $0.04 of noise saved.',
        patch: { matching: { excludedTerms: ['satellite', 'sky'] } },
        effect: { noiseRemoved: 5, relevantRemoved: 0, centsSaved: 4, sample: { ...sample, noiseRemoved: 5, relevantRemoved: 0 }, exact: true },
        source: 'ai',
      },
      {
        type: 'required_terms',
        values: ['deploy', 'latency', 'uptime'],
        why: 'Relevant posts are about running services. Applied as is, it would have dropped 8 scored matches of the last 30 days: all noise; about $0.06 of noise saved.',
        patch: { matching: { requiredTerms: ['deploy', 'latency', 'uptime'] } },
        effect: { noiseRemoved: 8, relevantRemoved: 0, centsSaved: 6, sample: { ...sample, noiseRemoved: 8, relevantRemoved: 0 }, exact: true },
        source: 'ai',
      },
      { type: 'context', values: [context], why: 'The noise is about astronomy.', patch: { context }, effect: null, source: 'ai' },
    ]);

    const request = JSON.parse(model.requests.at(-1)!.body);
    expect(request).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { name: 'keyword_suggestions', strict: true } },
    });
    const brief = JSON.parse(request.messages[1].content);
    expect(brief).toMatchObject({
      keyword: { term: 'Comet', kind: 'brand', context: null, platforms: null, matching: { requiredTerms: [], excludedTerms: [] } },
      scoredMatches: { relevant: 10, noise: 8, days: 30 },
    });
    expect(brief.relevantPosts).toHaveLength(10);
    expect(brief.noisePosts).toHaveLength(8);
    expect(brief.noisePosts[0]).toEqual({ platform: 'reddit', author: expect.stringMatching(/^reddit:person\d+$/), text: expect.stringMatching(/^Comet gum lorem\d+$/) });

    const applied = await withModel.rest('PATCH', `/v1/keywords/${keywordId}`, { key: cometKey, body: response.body.data.at(-2).patch });
    expect(applied).toMatchObject({ status: 200, body: { matching: { requiredTerms: ['deploy', 'latency', 'uptime'], requiredMode: 'any' } } });
  });

  it.each([
    ['an HTTP error', () => ({ status: 500, body: { error: { message: 'overloaded' } } }), 'classifier answered HTTP 500'],
    ['an answer out of schema', () => completion(JSON.stringify({ suggestions: [{ type: 'renamed_terms', values: ['x'], why: 'y' }] })), expect.stringMatching(/^answer out of schema at suggestions\.0\.type: /)],
    ['an answer that is not JSON', () => completion('Sure! Here are some ideas:'), 'answer is not JSON'],
    ['a refusal', () => completion(null, { refusal: 'I cannot help with that.' }), 'classifier refused: I cannot help with that.'],
  ])('keeps the rule suggestions and logs the failure on %s', async (_case, failure, error) => {
    const { key: failingKey, keywordId } = await seededKeyword('Nova');
    answer = failure as (request: ChatCompletionRequest) => FakeResponse;
    const response = await withModel.rest('GET', `/v1/keywords/${keywordId}/suggestions`, { key: failingKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual((await earshot.rest('GET', `/v1/keywords/${keywordId}/suggestions`, { key: failingKey })).body);
    expect(response.body.data).toHaveLength(4);
    expect(logged.lines.filter((line) => line.keywordId === keywordId && line.level === 'warn')).toEqual([
      expect.objectContaining({ message: 'language-model keyword suggestions failed; rule suggestions only', error }),
    ]);
  });

  it('answers the rule suggestions within the request deadline when the model is slower, not 503', async () => {
    const { key: slowKey, keywordId } = await seededKeyword('Pulsar');
    answer = () => completion(JSON.stringify({ suggestions: [] }));
    model.failNext('slow');
    const asked = Date.now();
    const response = await withModel.rest('GET', `/v1/keywords/${keywordId}/suggestions`, { key: slowKey });
    expect(Date.now() - asked).toBeLessThan(4_500);
    expect(response.status).toBe(200);
    expect(response.body.data.map((suggestion: KeywordSuggestion) => suggestion.source)).toEqual(['rules', 'rules', 'rules', 'rules']);
    expect(logged.lines.filter((line) => line.keywordId === keywordId && line.level === 'warn')).toEqual([
      expect.objectContaining({ message: 'language-model keyword suggestions failed; rule suggestions only', error: 'classifier timed out after 3000 ms' }),
    ]);
  }, 15_000);
});
