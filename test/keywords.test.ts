import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;
let key: string;

beforeAll(async () => {
  earshot = await startTestEarshot();
  key = (await earshot.createWorkspace('Acme')).apiKey;
});
afterAll(() => earshot?.stop());

describe('keywords over REST', () => {
  it('creates a keyword with every field of spec 2.1 present', async () => {
    const created = await earshot.rest('POST', '/v1/keywords', { key, body: { term: '"Acme Cloud"' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^kw_/),
      term: 'Acme Cloud',
      kind: 'brand',
      muted: false,
      pausedForBalance: false,
      pausedForNoise: false,
      pausedForCap: false,
      cap: { mentions: 200, per: 'month', used: 0, welcome: true, own: null, ownPer: null, resumesAt: null },
      comments: { enabled: false, maxPerPost: 20 },
      group: { id: expect.stringMatching(/^grp_/), name: 'Default', externalId: null, isDefault: true },
      platforms: null,
      feeds: [],
      reviewSources: [],
      context: null,
      matching: {
        requiredTerms: [],
        requiredMode: 'any',
        excludedTerms: [],
        excludedAuthors: [],
        caseSensitive: false,
        exactPhrase: true,
        subreddits: { only: [], excluded: [] },
        repositories: { events: ['traction', 'stars', 'growth'], minStars: null, minWeeklyStars: null },
      },
      stats: {
        mentions: 0,
        relevant: 0,
        last7d: 0,
        thisMonth: 0,
        lastMentionAt: null,
        feedback: { relevant: 0, notRelevant: 0 },
        noise: { scored: 0, relevant: 0, noisy: false },
        health: 'new',
        cost: { keywordDays: 0, keywordCents: 0, billableMentions: 0, mentionCents: 0, billableComments: 0, commentCents: 0, totalCents: 0 },
      },
      polling: [],
      createdAt: expect.any(String),
    });
    const fetched = await earshot.rest('GET', `/v1/keywords/${created.body.id}`, { key });
    expect(fetched.body).toEqual(created.body);
  });

  it('patches with PATCH semantics and answers 409 on a duplicate term', async () => {
    const a = await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'alpha', matching: { subreddits: { only: ['r/Rust', 'golang'] } } } });
    expect(a.body.matching.subreddits.only).toEqual(['rust', 'golang']);
    const patched = await earshot.rest('PATCH', `/v1/keywords/${a.body.id}`, {
      key,
      body: { matching: { subreddits: { excluded: ['r/Spam'] }, repositories: { minStars: 5 } }, context: 'The alpha product' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.matching.subreddits).toEqual({ only: ['rust', 'golang'], excluded: ['spam'] });
    expect(patched.body.matching.repositories).toEqual({ events: ['traction', 'stars', 'growth'], minStars: 5, minWeeklyStars: null });
    expect(patched.body.context).toBe('The alpha product');
    await earshot.rest('POST', '/v1/keywords', { key, body: { term: 'beta' } });
    const clash = await earshot.rest('PATCH', `/v1/keywords/${a.body.id}`, { key, body: { term: 'Beta' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('duplicate_keyword');
    const bad = await earshot.rest('PATCH', `/v1/keywords/${a.body.id}`, { key, body: { context: 'x'.repeat(301) } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', field: 'context' });
  });
});
