import { afterEach, describe, expect, it } from 'vitest';
import { createGitHubConnector } from '../jobs/connectors/github.ts';
import type { NormalizedPost } from '../vocabulary/normalized-post.ts';
import { UpstreamError } from '../runtime/upstream-http.ts';
import { type FakeServerOptions, type FakeUpstream, startFakeServer } from './fake-upstreams/fake-server.ts';
import { fastRetry, itSurvivesUpstreamFaults } from './fake-upstreams/fault-cases.ts';
import { type FakeGitHubFixtures, gitHubComment, gitHubIssue, gitHubRepository, startFakeGitHub } from './fake-upstreams/github.ts';

const since = new Date('2025-03-01T00:00:00Z');
const at = (hours: number) => new Date(since.getTime() + hours * 3_600_000);

const issue = gitHubIssue({
  repo: 'acme/widget',
  number: 42,
  title: 'Crash when Earshot webhook retries',
  body: 'Steps: see https://gist.github.com/dev/abc123 and the [log](https://logs.example.com/run/7).',
  login: 'dev',
  userId: 1001,
  createdAt: at(5),
});
const pullRequest = gitHubIssue({ repo: 'acme/widget', number: 43, title: 'Add Earshot integration', body: null, createdAt: at(6), pullRequest: true });
const repository = gitHubRepository({
  fullName: 'earshot-labs/earshot-cli',
  description: 'Command line for Earshot. Docs: https://earshot.example/cli',
  homepage: 'https://earshot.example',
  stars: 128,
  createdAt: new Date('2024-11-02T08:00:00Z'),
  updatedAt: at(7),
  ownerId: 7007,
});

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function connectorWith(fixtures: FakeGitHubFixtures, env: Record<string, string> = {}, options: FakeServerOptions = {}) {
  const fake = await startFakeGitHub(fixtures, options);
  fakes.push(fake);
  return { fake, connector: createGitHubConnector({ EARSHOT_UPSTREAM_GITHUB: fake.url, ...env }, { retry: fastRetry }) };
}

describe('GitHub connector', () => {
  it('searches issues by creation and repositories by update, with the API version header and no token', async () => {
    const { fake, connector } = await connectorWith({ issues: [issue], repositories: [repository] });
    await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 100 });
    const byPath = Object.fromEntries(fake.requests.map((request) => [request.path, request]));
    expect(Object.keys(byPath).sort()).toEqual(['/search/issues', '/search/repositories']);
    expect(fake.requests.filter((request) => request.path === '/search/issues').map((request) => Object.fromEntries(request.query)).sort((a, b) => a.q.localeCompare(b.q))).toEqual([
      { q: 'earshot is:issue in:title,body created:>=2025-03-01', sort: 'created', order: 'desc', per_page: '100', page: '1' },
      { q: 'earshot is:pull-request in:title,body created:>=2025-03-01', sort: 'created', order: 'desc', per_page: '100', page: '1' },
    ]);
    expect(Object.fromEntries(byPath['/search/repositories'].query)).toEqual({ q: 'earshot in:name,description,readme', sort: 'updated', order: 'desc', per_page: '100', page: '1' });
    expect(byPath['/search/issues'].headers).toMatchObject({ accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' });
    expect(byPath['/search/issues'].headers.authorization).toBeUndefined();
  });

  it('sends EARSHOT_GITHUB_TOKEN as a bearer token', async () => {
    const { fake, connector } = await connectorWith({ issues: [issue], token: 'ghp_secret' }, { EARSHOT_GITHUB_TOKEN: 'ghp_secret' });
    const page = await connector.search({ term: 'earshot', exactPhrase: true, since });
    expect(page.posts).toHaveLength(1);
    expect(fake.requests[0].headers.authorization).toBe('Bearer ghp_secret');
    expect(fake.requests[0].query.get('q')).toMatch(/^"earshot" /);
  });

  it('maps issues, pull requests and repositories, the latter with their star observation', async () => {
    const { connector } = await connectorWith({ issues: [issue, pullRequest], repositories: [repository] });
    const page = await connector.search({ term: 'earshot', exactPhrase: false, since });
    expect(page).toEqual({
      nextCursor: null,
      posts: [
        {
          platform: 'github',
          externalId: 'PR_kwDOAbc43',
          url: 'https://github.com/acme/widget/pull/43',
          text: 'Add Earshot integration',
          title: 'Add Earshot integration',
          publishedAt: at(6),
          replyTo: null,
          links: [],
          author: { platformId: '583231', name: 'octocat', handle: 'octocat', url: 'https://github.com/octocat', avatarUrl: 'https://avatars.githubusercontent.com/u/583231?v=4', followers: null },
        },
        {
          platform: 'github',
          externalId: 'I_kwDOAbc42',
          url: 'https://github.com/acme/widget/issues/42',
          text: 'Crash when Earshot webhook retries\n\nSteps: see https://gist.github.com/dev/abc123 and the [log](https://logs.example.com/run/7).',
          title: 'Crash when Earshot webhook retries',
          publishedAt: at(5),
          replyTo: null,
          links: ['https://gist.github.com/dev/abc123', 'https://logs.example.com/run/7'],
          author: { platformId: '1001', name: 'dev', handle: 'dev', url: 'https://github.com/dev', avatarUrl: 'https://avatars.githubusercontent.com/u/1001?v=4', followers: null },
        },
        {
          platform: 'github',
          externalId: 'R_kgDOearshot-cli',
          url: 'https://github.com/earshot-labs/earshot-cli',
          text: 'earshot-labs/earshot-cli\n\nCommand line for Earshot. Docs: https://earshot.example/cli',
          title: 'earshot-labs/earshot-cli',
          publishedAt: at(7),
          replyTo: null,
          links: ['https://earshot.example', 'https://earshot.example/cli'],
          author: { platformId: '7007', name: 'earshot-labs', handle: 'earshot-labs', url: 'https://github.com/earshot-labs', avatarUrl: 'https://avatars.githubusercontent.com/u/7007?v=4', followers: null },
          repository: { fullName: 'earshot-labs/earshot-cli', stars: 128, starsLastWeek: null, createdAt: new Date('2024-11-02T08:00:00Z') },
        },
      ] satisfies NormalizedPost[],
    });
  });

  it('pages the searches side by side and stops each at since', async () => {
    const issues = [1, 2, 3, 4, 5].map((n) => gitHubIssue({ repo: 'acme/widget', number: n, title: `earshot ${n}`, createdAt: at(100 - n) }));
    const repositories = [
      ...[1, 2, 3].map((n) => gitHubRepository({ fullName: `acme/earshot-${n}`, stars: n, createdAt: at(-500), updatedAt: at(50 - n) })),
      gitHubRepository({ fullName: 'acme/earshot-stale', stars: 9, createdAt: at(-500), updatedAt: at(-1) }),
    ];
    const { fake, connector } = await connectorWith({ issues, repositories });
    const seen: string[] = [];
    let cursor: string | null = null;
    let calls = 0;
    do {
      const page = await connector.search({ term: 'earshot', exactPhrase: false, since, limit: 2, cursor });
      seen.push(...page.posts.map((post) => post.url.replace('https://github.com/', '')));
      cursor = page.nextCursor;
    } while (cursor && ++calls < 10);
    expect(seen).toEqual([
      'acme/widget/issues/1', 'acme/widget/issues/2', 'acme/earshot-1', 'acme/earshot-2',
      'acme/widget/issues/3', 'acme/widget/issues/4', 'acme/earshot-3',
      'acme/widget/issues/5',
    ]);
    expect(fake.requests.map((request) => `${request.path} ${request.query.get('page')}`).sort()).toEqual([
      '/search/issues 1', '/search/issues 1', '/search/issues 2', '/search/issues 3', '/search/repositories 1', '/search/repositories 2',
    ]);
  });

  it('waits out an exhausted rate limit until its reset, and gives up at once on a far reset', async () => {
    const soon = await connectorWith({ issues: [issue] });
    soon.fake.failNext('rate-limit');
    expect((await soon.connector.search({ term: 'earshot', exactPhrase: false, since })).posts).toHaveLength(1);
    // The issue and the pull-request search, one of them twice.
    expect(soon.fake.requests.filter((request) => request.path === '/search/issues')).toHaveLength(3);

    const far = await connectorWith({ issues: [issue] }, {}, { retryAfterSeconds: 120 });
    far.fake.failNext('rate-limit');
    const failure = await far.connector.comments!({ externalId: issue.node_id, url: issue.html_url }, since, 10).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect((failure as UpstreamError).status).toBe(403);
    expect((failure as UpstreamError).retryAfterSeconds).toBeGreaterThan(100);
    expect(far.fake.requests).toHaveLength(1);
  });

  it('reads issue comments updated since a time, newest created first, at most the limit', async () => {
    const comments = [
      gitHubComment({ issue, id: 9001, body: 'Same here, see https://status.example.com', login: 'ops', userId: 77, createdAt: at(8) }),
      gitHubComment({ issue, id: 9002, body: 'Fixed in 1.2', createdAt: at(9) }),
      gitHubComment({ issue, id: 9000, body: 'Old, edited later', createdAt: at(1), updatedAt: at(10) }),
      gitHubComment({ issue: pullRequest, id: 9100, body: 'Other thread', createdAt: at(9) }),
    ];
    const { fake, connector } = await connectorWith({ issues: [issue], comments });
    const read = await connector.comments!({ externalId: issue.node_id, url: issue.html_url }, at(7), 2);
    expect(fake.requests[0].path).toBe('/repos/acme/widget/issues/42/comments');
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({ since: at(7).toISOString(), per_page: '100', page: '1' });
    expect(read).toEqual([
      expect.objectContaining({ externalId: 'IC_kwDO9002', text: 'Fixed in 1.2' }),
      {
        platform: 'github',
        externalId: 'IC_kwDO9001',
        url: 'https://github.com/acme/widget/issues/42#issuecomment-9001',
        text: 'Same here, see https://status.example.com',
        publishedAt: at(8),
        replyTo: 'https://github.com/acme/widget/issues/42',
        links: ['https://status.example.com'],
        author: { platformId: '77', name: 'ops', handle: 'ops', url: 'https://github.com/ops', avatarUrl: 'https://avatars.githubusercontent.com/u/77?v=4', followers: null },
      },
    ]);
    expect(await connector.comments!({ externalId: repository.node_id, url: repository.html_url }, at(7), 2)).toEqual([]);
  });

  it('keeps the issues when repository search is not served, and maps items with only the fields the reference marks required', async () => {
    // A proxy serving issue search alone, with the fields an issue may lack: no node_id, no body, a deleted author.
    const fake = await startFakeServer((request) => request.path === '/search/issues'
      ? { body: { items: request.query.get('q')?.includes('is:pull-request') ? [] : [
        { id: 3001, html_url: 'https://github.com/acme/widget/issues/5', title: 'Earshot hangs', user: { login: 'dev' }, created_at: '2025-03-01T05:00:00Z' },
        { id: 3002, html_url: 'https://github.com/acme/widget/issues/6', title: 'Earshot again', body: null, user: null, created_at: '2025-03-01T06:00:00Z' },
      ] } }
      : null);
    fakes.push(fake);
    const page = await createGitHubConnector({ EARSHOT_UPSTREAM_GITHUB: fake.url }, { retry: fastRetry }).search({ term: 'earshot', exactPhrase: false, since });
    expect(fake.requests.map((request) => request.path).sort()).toEqual(['/search/issues', '/search/issues', '/search/repositories']);
    expect(page.posts.map((post) => [post.externalId, post.text, post.author])).toEqual([
      ['3002', 'Earshot again', { platformId: '10137', name: 'ghost', handle: 'ghost', url: 'https://github.com/ghost', avatarUrl: null, followers: null }],
      ['3001', 'Earshot hangs', { platformId: 'dev', name: 'dev', handle: 'dev', url: 'https://github.com/dev', avatarUrl: null, followers: null }],
    ]);
    expect(page.nextCursor).toBeNull();
  });

  it('keeps the items of a page that parse (not one without a title) and reads a created_at without an offset as UTC', async () => {
    const fake = await startFakeServer((request) => request.path === '/search/issues'
      ? { body: { items: request.query.get('q')?.includes('is:pull-request') ? [] : [
        { id: 3003, html_url: 'https://github.com/acme/widget/issues/7', user: { login: 'dev' }, created_at: '2025-03-01T07:00:00Z' },
        { id: 3004, html_url: 'https://github.com/acme/widget/issues/8', title: 'Earshot, local time', user: { login: 'dev' }, created_at: '2025-03-01T06:30:00' },
      ] } }
      : null);
    fakes.push(fake);
    const page = await createGitHubConnector({ EARSHOT_UPSTREAM_GITHUB: fake.url }, { retry: fastRetry }).search({ term: 'earshot', exactPhrase: false, since });
    expect(page.posts.map((post) => [post.externalId, post.publishedAt.toISOString()])).toEqual([['3004', '2025-03-01T06:30:00.000Z']]);
  });

  // Comments, not search: search's two parallel requests would share out the faults between them.
  itSurvivesUpstreamFaults(async () => {
    const { fake, connector } = await connectorWith({ issues: [issue], comments: [gitHubComment({ issue, id: 1, body: 'A comment', createdAt: at(1) })] });
    return { fake, call: () => connector.comments!({ externalId: issue.node_id, url: issue.html_url }, since, 10) };
  });
});
