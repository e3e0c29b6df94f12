import type { GitHubIssue, GitHubIssueComment, GitHubRepository, GitHubUser } from '../../jobs/connectors/github.ts';
import { type FakeServerOptions, type FakeUpstream, matchesSearch, pageOf, startFakeServer } from './fake-server.ts';

/** GitHub sends every field the connector may go without: a fixture has them all. */
type Complete = { node_id: string; id: number };
export type GitHubIssueItem = GitHubIssue & Complete & Record<string, unknown>;
export type GitHubRepositoryItem = GitHubRepository & Complete & Record<string, unknown>;
export type GitHubCommentItem = GitHubIssueComment & Complete & Record<string, unknown> & { issue_url: string; updated_at: string };

const api = 'https://api.github.com';

export function gitHubUser(login: string, id: number): GitHubUser & Record<string, unknown> {
  return {
    login,
    id,
    node_id: `U_kgDO${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: `${api}/users/${login}`,
    html_url: `https://github.com/${login}`,
    followers_url: `${api}/users/${login}/followers`,
    repos_url: `${api}/users/${login}/repos`,
    type: 'User',
    user_view_type: 'public',
    site_admin: false,
  };
}

export interface GitHubIssueFixture {
  repo: string;
  number: number;
  title: string;
  body?: string | null;
  login?: string;
  userId?: number;
  createdAt: Date;
  pullRequest?: boolean;
}

/** An issue-search item as GitHub sends it; pull requests carry `pull_request` and a `/pull/` address. */
export function gitHubIssue(issue: GitHubIssueFixture): GitHubIssueItem {
  const apiUrl = `${api}/repos/${issue.repo}/issues/${issue.number}`;
  const id = 2_000_000_000 + issue.number;
  return {
    url: apiUrl,
    repository_url: `${api}/repos/${issue.repo}`,
    labels_url: `${apiUrl}/labels{/name}`,
    comments_url: `${apiUrl}/comments`,
    events_url: `${apiUrl}/events`,
    html_url: `https://github.com/${issue.repo}/${issue.pullRequest ? 'pull' : 'issues'}/${issue.number}`,
    id,
    node_id: `${issue.pullRequest ? 'PR' : 'I'}_kwDOAbc${issue.number}`,
    number: issue.number,
    title: issue.title,
    user: gitHubUser(issue.login ?? 'octocat', issue.userId ?? 583231),
    labels: [],
    state: 'open',
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: 0,
    created_at: issue.createdAt.toISOString().replace('.000Z', 'Z'),
    updated_at: issue.createdAt.toISOString().replace('.000Z', 'Z'),
    closed_at: null,
    author_association: 'NONE',
    type: null,
    active_lock_reason: null,
    ...(issue.pullRequest ? { draft: false, pull_request: { url: `${api}/repos/${issue.repo}/pulls/${issue.number}`, html_url: `https://github.com/${issue.repo}/pull/${issue.number}`, merged_at: null } } : {}),
    body: issue.body ?? null,
    reactions: { url: `${apiUrl}/reactions`, total_count: 0, '+1': 0, '-1': 0, laugh: 0, hooray: 0, confused: 0, heart: 0, rocket: 0, eyes: 0 },
    timeline_url: `${apiUrl}/timeline`,
    performed_via_github_app: null,
    state_reason: null,
    score: 1,
  };
}

export interface GitHubRepositoryFixture {
  fullName: string;
  description?: string | null;
  homepage?: string | null;
  /** Searched with `in:readme` only. */
  readme?: string;
  stars: number;
  createdAt: Date;
  updatedAt: Date;
  ownerId?: number;
}

export function gitHubRepository(repository: GitHubRepositoryFixture): GitHubRepositoryItem {
  const [owner, name] = repository.fullName.split('/');
  const stamp = (date: Date) => date.toISOString().replace('.000Z', 'Z');
  return {
    id: 800_000_000 + repository.stars,
    node_id: `R_kgDO${name}`,
    name,
    full_name: repository.fullName,
    private: false,
    owner: gitHubUser(owner, repository.ownerId ?? 9919),
    html_url: `https://github.com/${repository.fullName}`,
    description: repository.description ?? null,
    fork: false,
    url: `${api}/repos/${repository.fullName}`,
    created_at: stamp(repository.createdAt),
    updated_at: stamp(repository.updatedAt),
    pushed_at: stamp(repository.updatedAt),
    homepage: repository.homepage ?? null,
    size: 1024,
    stargazers_count: repository.stars,
    watchers_count: repository.stars,
    language: 'TypeScript',
    forks_count: 3,
    open_issues_count: 1,
    license: { key: 'mit', name: 'MIT License', spdx_id: 'MIT' },
    topics: [],
    visibility: 'public',
    default_branch: 'main',
    score: 1,
    readme: repository.readme,
  };
}

export function gitHubComment(comment: { issue: GitHubIssueItem; id: number; body: string; login?: string; userId?: number; createdAt: Date; updatedAt?: Date }): GitHubCommentItem {
  const repo = comment.issue.html_url.replace(/^https:\/\/github\.com\/|\/(issues|pull)\/\d+$/g, '');
  return {
    url: `${api}/repos/${repo}/issues/comments/${comment.id}`,
    html_url: `${comment.issue.html_url}#issuecomment-${comment.id}`,
    issue_url: comment.issue.url as string,
    id: comment.id,
    node_id: `IC_kwDO${comment.id}`,
    user: gitHubUser(comment.login ?? 'hubot', comment.userId ?? 480938),
    created_at: comment.createdAt.toISOString().replace('.000Z', 'Z'),
    updated_at: (comment.updatedAt ?? comment.createdAt).toISOString().replace('.000Z', 'Z'),
    author_association: 'CONTRIBUTOR',
    body: comment.body,
    reactions: { total_count: 0 },
    performed_via_github_app: null,
  };
}

export interface FakeGitHubFixtures {
  issues?: GitHubIssueItem[];
  repositories?: GitHubRepositoryItem[];
  comments?: GitHubCommentItem[];
  /** When set, requests must carry it as a bearer token. */
  token?: string;
}

/** Splits a search `q` into its free text and its `qualifier:value` parts. */
function parseSearch(q: string): { text: string; qualifiers: Map<string, string> } {
  const qualifiers = new Map<string, string>();
  const text = q.replace(/(?:^|\s)(\w+):(\S+)/g, (_whole, name: string, value: string) => {
    qualifiers.set(name, value);
    return ' ';
  });
  return { text: text.trim(), qualifiers };
}

const unprocessable = (message: string) => ({ status: 422, body: { message: 'Validation Failed', errors: [{ message, resource: 'Search', field: 'q', code: 'invalid' }], documentation_url: 'https://docs.github.com/v3/search', status: '422' } });

/**
 * GitHub's issue and repository search and issue comments. A rate-limit
 * fault answers as GitHub does: 403 with `X-RateLimit-Remaining: 0` and the
 * reset time, not a 429 with `Retry-After`.
 */
export function startFakeGitHub(fixtures: FakeGitHubFixtures, options: FakeServerOptions = {}): Promise<FakeUpstream> {
  return startFakeServer((request) => {
    if (request.method !== 'GET') return null;
    if (fixtures.token && request.headers.authorization !== `Bearer ${fixtures.token}`) {
      return { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' } };
    }
    const { query } = request;
    const perPage = Number(query.get('per_page') ?? 30);
    const page = Number(query.get('page') ?? 1);
    if (!(perPage >= 1 && perPage <= 100)) return unprocessable('per_page must be at most 100');
    const headers = { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '29', 'x-ratelimit-resource': 'search' };

    if (request.path === '/search/issues' || request.path === '/search/repositories') {
      if (query.get('order') !== 'desc') return unprocessable('fake: order=desc expected');
      const { text, qualifiers } = parseSearch(query.get('q') ?? '');
      if (!text) return unprocessable('The search is longer than 256 characters or has no terms.');
      const isIssues = request.path === '/search/issues';
      const kind = qualifiers.get('is');
      if (isIssues && kind !== 'issue' && kind !== 'pull-request') return { status: 422, body: { message: "Query must include 'is:issue' or 'is:pull-request'", documentation_url: 'https://docs.github.com/rest/search/search#search-issues-and-pull-requests', status: '422' } };
      const expectedSort = isIssues ? 'created' : 'updated';
      if (query.get('sort') !== expectedSort) return unprocessable(`fake: sort=${expectedSort} expected`);
      const fields = (qualifiers.get('in') ?? '').split(',');
      const createdFrom = qualifiers.get('created')?.replace(/^>=/, '');
      const items: Record<string, unknown>[] = isIssues
        ? (fixtures.issues ?? [])
            .filter((issue) => ('pull_request' in issue) === (kind === 'pull-request'))
            .filter((issue) => !createdFrom || issue.created_at >= createdFrom)
            .filter((issue) => matchesSearch([fields.includes('title') ? issue.title : '', fields.includes('body') ? issue.body : ''].join(' '), text))
            .sort((a, b) => b.created_at.localeCompare(a.created_at))
        : (fixtures.repositories ?? [])
            .filter((repository) => matchesSearch([fields.includes('name') ? repository.full_name : '', fields.includes('description') ? repository.description : '', fields.includes('readme') ? repository.readme : ''].join(' '), text))
            .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
            .map(({ readme: _readme, ...repository }) => repository);
      return { headers, body: { total_count: items.length, incomplete_results: false, items: pageOf(items, page - 1, perPage) } };
    }

    const commentsPath = request.path.match(/^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/);
    if (commentsPath) {
      const issueUrl = `${api}/repos/${commentsPath[1]}/issues/${commentsPath[2]}`;
      const since = query.get('since');
      const comments = (fixtures.comments ?? [])
        .filter((comment) => comment.issue_url === issueUrl)
        .filter((comment) => !since || comment.updated_at >= since.replace('.000Z', 'Z'))
        .sort((a, b) => a.created_at.localeCompare(b.created_at));
      return { headers: { ...headers, 'x-ratelimit-resource': 'core' }, body: pageOf(comments, page - 1, perPage) };
    }
    return null;
  }, {
    rateLimitResponse: (retryAfterSeconds) => ({
      status: 403,
      headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + retryAfterSeconds), 'x-ratelimit-resource': 'search' },
      body: { message: 'API rate limit exceeded for 127.0.0.1. (But here\'s the good news: Authenticated requests get a higher rate limit.)', documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting' },
    }),
    ...options,
  });
}
