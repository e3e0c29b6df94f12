import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEarshot, type TestEarshot } from './harness.ts';

let earshot: TestEarshot;

beforeAll(async () => {
  earshot = await startTestEarshot();
});
afterAll(() => earshot?.stop());

const timestamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const filtersFields = 'excludedTerms excludedAuthors githubRepositories subreddits { allowed denied } updatedAt';
const profileFields = 'name description website competitors guidelines updatedAt';
const emptyFilters = { excludedTerms: [], excludedAuthors: [], githubRepositories: [], subreddits: { allowed: [], denied: [] }, updatedAt: null };
const emptyProfile = { name: null, description: null, website: null, competitors: [], guidelines: null, updatedAt: null };

const workspaceKey = async () => (await earshot.createWorkspace()).apiKey;
const items = (count: number, make: (index: number) => string) => Array.from({ length: count }, (_, index) => make(index));

describe('workspace filters over REST', () => {
  it('starts empty and stores every list in its canonical form', async () => {
    const key = await workspaceKey();
    const initial = await earshot.rest('GET', '/v1/filters', { key });
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual(emptyFilters);

    const patched = await earshot.rest('PATCH', '/v1/filters', {
      key,
      body: {
        excludedTerms: ['  giveaway ', 'crypto*', 'giveaway'],
        excludedAuthors: ['@Alice', 'https://www.reddit.com/user/Spammer/', 'https://x.com/SpamBot', 'u/spammer'],
        githubRepositories: ['https://github.com/Acme/Widget/issues/3', 'acme/widget.git', 'github.com/Other/Repo', 'x/y'],
        subreddits: { allowed: ['r/Rust', '/r/golang', 'rust', 'https://www.reddit.com/r/Node/', 'old.reddit.com/r/deno/comments/1abc/x'], denied: ['R/Spam'] },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      excludedTerms: ['giveaway', 'crypto*'],
      excludedAuthors: ['@alice', 'reddit:spammer', 'x:spambot'],
      githubRepositories: ['acme/widget', 'other/repo', 'x/y'],
      subreddits: { allowed: ['rust', 'golang', 'node', 'deno'], denied: ['spam'] },
      updatedAt: timestamp,
    });
    expect((await earshot.rest('GET', '/v1/filters', { key })).body).toEqual(patched.body);
  });

  it('keeps omitted fields, replaces sent lists, each subreddit list on its own, and clears with null or []', async () => {
    const key = await workspaceKey();
    const first = await earshot.rest('PATCH', '/v1/filters', {
      key,
      body: { excludedTerms: ['a', 'b'], excludedAuthors: ['@bob'], githubRepositories: ['a/b'], subreddits: { allowed: ['one'], denied: ['two'] } },
    });
    const onlyTerms = await earshot.rest('PATCH', '/v1/filters', { key, body: { excludedTerms: ['c'] } });
    expect(onlyTerms.body).toEqual({ ...first.body, excludedTerms: ['c'], updatedAt: timestamp });
    const onlyDenied = await earshot.rest('PATCH', '/v1/filters', { key, body: { subreddits: { denied: ['three', 'four'] } } });
    expect(onlyDenied.body).toEqual({ ...onlyTerms.body, subreddits: { allowed: ['one'], denied: ['three', 'four'] }, updatedAt: timestamp });
    const cleared = await earshot.rest('PATCH', '/v1/filters', {
      key,
      body: { excludedTerms: null, excludedAuthors: [], githubRepositories: null, subreddits: { allowed: null } },
    });
    expect(cleared.body).toEqual({ ...emptyFilters, subreddits: { allowed: [], denied: ['three', 'four'] }, updatedAt: timestamp });
    const nothing = await earshot.rest('PATCH', '/v1/filters', { key, body: {} });
    expect(nothing.body).toEqual(cleared.body);
  });

  const accepted: [string, Record<string, unknown>][] = [
    ['50 excluded terms of 80 characters', { excludedTerms: items(50, (i) => `${i}`.padEnd(80, 't')) }],
    ['an excluded term of 1 character', { excludedTerms: ['x'] }],
    ['100 excluded authors', { excludedAuthors: items(100, (i) => `@author${i}`) }],
    ['an excluded author of 500 characters', { excludedAuthors: ['n'.repeat(500)] }],
    ['100 repositories', { githubRepositories: items(100, (i) => `owner/repo-${i}`) }],
    ['50 subreddits of 100 characters in each list', { subreddits: { allowed: items(50, (i) => `${i}`.padEnd(100, 'a')), denied: items(50, (i) => `${i}`.padEnd(100, 'd')) } }],
  ];
  it.each(accepted)('accepts %s', async (_name, body) => {
    const key = await workspaceKey();
    const response = await earshot.rest('PATCH', '/v1/filters', { key, body });
    expect(response.status).toBe(200);
    const [field, value] = Object.entries(body)[0];
    expect(response.body[field]).toEqual(field === 'excludedAuthors' ? (value as string[]).map((entry) => (entry.startsWith('@') ? entry : `name:${entry}`)) : value);
  });

  const refused: [string, Record<string, unknown>, string][] = [
    ['51 excluded terms', { excludedTerms: items(51, (i) => `term${i}`) }, 'excludedTerms'],
    ['an excluded term of 81 characters', { excludedTerms: ['ok', 't'.repeat(81)] }, 'excludedTerms.1'],
    ['an empty excluded term', { excludedTerms: ['  '] }, 'excludedTerms.0'],
    ['101 excluded authors', { excludedAuthors: items(101, (i) => `@author${i}`) }, 'excludedAuthors'],
    ['an excluded author of 501 characters', { excludedAuthors: ['n'.repeat(501)] }, 'excludedAuthors.0'],
    ['an excluded author link that names nobody', { excludedAuthors: ['https://news.ycombinator.com/item?id=1'] }, 'excludedAuthors.0'],
    ['101 repositories', { githubRepositories: items(101, (i) => `owner/repo-${i}`) }, 'githubRepositories'],
    ['a repository without an owner', { githubRepositories: ['acme/widget', 'widget'] }, 'githubRepositories.1'],
    ['a repository on another host', { githubRepositories: ['https://gitlab.com/acme/widget'] }, 'githubRepositories.0'],
    ['51 allowed subreddits', { subreddits: { allowed: items(51, (i) => `sub${i}`) } }, 'subreddits.allowed'],
    ['a denied subreddit of 101 characters', { subreddits: { denied: ['s'.repeat(101)] } }, 'subreddits.denied.0'],
    ['an unknown subreddit list', { subreddits: { only: ['rust'] } }, 'subreddits.only'],
    ['an unknown field', { excludedWords: ['x'] }, 'excludedWords'],
    ['a number in a list', { excludedTerms: ['spam', 5] }, 'excludedTerms.1'],
    ['an object for a list', { excludedAuthors: { name: 'x' } }, 'excludedAuthors'],
    ['null subreddits', { subreddits: null }, 'subreddits'],
  ];
  it.each(refused)('refuses %s, naming the field and changing nothing', async (_name, body, field) => {
    const key = await workspaceKey();
    const before = await earshot.rest('PATCH', '/v1/filters', { key, body: { excludedTerms: ['kept'], subreddits: { allowed: ['kept'] } } });
    const response = await earshot.rest('PATCH', '/v1/filters', { key, body });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'validation_error', field });
    expect((await earshot.rest('GET', '/v1/filters', { key })).body).toEqual(before.body);
  });

  it('keeps each workspace to its own filters', async () => {
    const mine = await workspaceKey();
    const theirs = await workspaceKey();
    await earshot.rest('PATCH', '/v1/filters', { key: mine, body: { excludedTerms: ['mine'] } });
    expect((await earshot.rest('GET', '/v1/filters', { key: theirs })).body).toEqual(emptyFilters);
  });
});

describe('workspace filters over GraphQL', () => {
  it('reads and patches the same filters with the same errors', async () => {
    const key = await workspaceKey();
    const read = await earshot.graphql(`{ workspaceFilters { ${filtersFields} } }`, {}, key);
    expect(read.body).toEqual({ data: { workspaceFilters: emptyFilters } });
    const update = `mutation ($input: WorkspaceFiltersPatchInput!) { updateWorkspaceFilters(input: $input) { ${filtersFields} } }`;
    const patched = await earshot.graphql(update, { input: { githubRepositories: ['https://github.com/Acme/Widget'], subreddits: { denied: ['r/Spam'] } } }, key);
    expect(patched.body).toEqual({
      data: {
        updateWorkspaceFilters: { ...emptyFilters, githubRepositories: ['acme/widget'], subreddits: { allowed: [], denied: ['spam'] }, updatedAt: timestamp },
      },
    });
    const refused = await earshot.graphql(update, { input: { excludedTerms: items(51, (i) => `t${i}`) } }, key);
    expect(refused.body.errors[0]).toMatchObject({ message: 'excludedTerms: at most 50 items', extensions: { code: 'validation_error', field: 'excludedTerms' } });
    const rest = await earshot.rest('GET', '/v1/filters', { key });
    expect(rest.body).toEqual(patched.body.data.updateWorkspaceFilters);
  });
});

describe('company profile over REST', () => {
  it('starts empty; PATCH keeps omitted fields, replaces competitors and clears with null or blank', async () => {
    const key = await workspaceKey();
    expect((await earshot.rest('GET', '/v1/company-profile', { key })).body).toEqual(emptyProfile);
    const patched = await earshot.rest('PATCH', '/v1/company-profile', {
      key,
      body: {
        name: ' Acme ',
        description: 'Cloud widgets for developers',
        website: 'acme.com',
        competitors: ['Globex', 'Initech', 'globex'],
        guidelines: 'Job posts are not relevant',
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      name: 'Acme',
      description: 'Cloud widgets for developers',
      website: 'https://acme.com',
      competitors: ['Globex', 'Initech'],
      guidelines: 'Job posts are not relevant',
      updatedAt: timestamp,
    });
    expect((await earshot.rest('GET', '/v1/company-profile', { key })).body).toEqual(patched.body);

    const partial = await earshot.rest('PATCH', '/v1/company-profile', { key, body: { competitors: ['Umbrella'], website: 'https://acme.com/en?ref=x' } });
    expect(partial.body).toEqual({ ...patched.body, competitors: ['Umbrella'], website: 'https://acme.com/en?ref=x', updatedAt: timestamp });
    const cleared = await earshot.rest('PATCH', '/v1/company-profile', {
      key,
      body: { name: null, description: '  ', website: null, competitors: null, guidelines: '' },
    });
    expect(cleared.body).toEqual({ ...emptyProfile, updatedAt: timestamp });
  });

  it('accepts each field at its bound', async () => {
    const key = await workspaceKey();
    const body = {
      name: 'n'.repeat(100),
      description: 'd'.repeat(2000),
      website: `https://acme.com/${'p'.repeat(483)}`,
      competitors: items(50, (i) => `${i}`.padEnd(100, 'c')),
      guidelines: 'g'.repeat(4000),
    };
    expect(body.website).toHaveLength(500);
    const response = await earshot.rest('PATCH', '/v1/company-profile', { key, body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...body, updatedAt: timestamp });
  });

  const refused: [string, Record<string, unknown>, string][] = [
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name'],
    ['a description of 2001 characters', { description: 'd'.repeat(2001) }, 'description'],
    ['guidelines of 4001 characters', { guidelines: 'g'.repeat(4001) }, 'guidelines'],
    ['a website of 501 characters', { website: `https://acme.com/${'p'.repeat(484)}` }, 'website'],
    ['a website that is no web address', { website: 'not a site' }, 'website'],
    ['a website on another scheme', { website: 'ftp://acme.com' }, 'website'],
    ['a website that is a number, which a URL reads as an IPv4 address', { website: '1' }, 'website'],
    ['a website of numbers that a URL reads as another IPv4 address', { website: 'https://1.2' }, 'website'],
    ['51 competitors', { competitors: items(51, (i) => `c${i}`) }, 'competitors'],
    ['a competitor of 101 characters', { competitors: ['c'.repeat(101)] }, 'competitors.0'],
    ['an empty competitor', { competitors: [''] }, 'competitors.0'],
    ['an unknown field', { tagline: 'x' }, 'tagline'],
    ['a number for a name', { name: 7 }, 'name'],
  ];
  it.each(refused)('refuses %s, naming the field and changing nothing', async (_name, body, field) => {
    const key = await workspaceKey();
    const before = await earshot.rest('PATCH', '/v1/company-profile', { key, body: { name: 'Kept', competitors: ['Kept'] } });
    const response = await earshot.rest('PATCH', '/v1/company-profile', { key, body });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'validation_error', field });
    expect((await earshot.rest('GET', '/v1/company-profile', { key })).body).toEqual(before.body);
  });
});

describe('company profile over GraphQL', () => {
  it('reads and patches the same profile', async () => {
    const key = await workspaceKey();
    const read = await earshot.graphql(`{ companyProfile { ${profileFields} } }`, {}, key);
    expect(read.body).toEqual({ data: { companyProfile: emptyProfile } });
    const update = `mutation ($input: CompanyProfilePatchInput!) { updateCompanyProfile(input: $input) { ${profileFields} } }`;
    const patched = await earshot.graphql(update, { input: { name: 'Acme', competitors: ['Globex'] } }, key);
    expect(patched.body).toEqual({ data: { updateCompanyProfile: { ...emptyProfile, name: 'Acme', competitors: ['Globex'], updatedAt: timestamp } } });
    const refused = await earshot.graphql(update, { input: { website: 'mailto:someone@acme.com' } }, key);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'validation_error', field: 'website' });
    expect((await earshot.rest('GET', '/v1/company-profile', { key })).body).toEqual(patched.body.data.updateCompanyProfile);
  });
});
