/**
 * GitHub through its REST API: issues and pull requests from issue search,
 * repositories from repository search (as posts carrying a `repository`
 * observation for the repository events of spec 2.1.3), and issue comments.
 *
 * Environment:
 * - `EARSHOT_GITHUB_TOKEN`: a token sent as `Authorization: Bearer`. Optional:
 *   without it search allows 10 requests a minute instead of 30, and the
 *   rest of the API 60 an hour instead of 5,000.
 * - `EARSHOT_UPSTREAM_GITHUB`: API base, default `https://api.github.com`.
 */
import { z } from 'zod';
import type { ConnectorOptions, SearchConnector, SearchQuery } from './connector.ts';
import type { NormalizedAuthor, NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { titledText, linksInText, uniqueLinks } from './post-text.ts';
import { pageSize, searchText } from './search-query.ts';
import { getUpstreamJson, type UpstreamResponse, upstreamBase } from '../../runtime/upstream-http.ts';
import { whenUpstreamFails } from './optional-call.ts';
import { parseUpstreamShape, upstreamItems, upstreamTimestamp } from './upstream-shape.ts';


/** A numeric id, which a proxy or recording may hand over as a string. */
const numericId = z.union([z.number(), z.string()]);

/** `simple-user`: only `login` is read for sure; the rest is derived from it when missing. */
const userShape = z.object({ login: z.string(), id: numericId.optional(), avatar_url: z.string().nullish(), html_url: z.string().nullish() });

/**
 * Every item carries `node_id` (the id mentions are stored under); an item
 * without one falls back to its numeric `id`, then its address. `user` is
 * null on issues and comments whose author deleted the account (GitHub
 * shows them as "ghost").
 */
const itemIds = { node_id: z.string().nullish(), id: numericId.nullish(), html_url: z.string() };

const issueShape = z.object({
  ...itemIds,
  title: z.string(),
  body: z.string().nullish(),
  user: userShape.nullish(),
  created_at: upstreamTimestamp,
});

const repositoryShape = z.object({
  ...itemIds,
  full_name: z.string(),
  description: z.string().nullish(),
  homepage: z.string().nullish(),
  owner: userShape.nullish(),
  stargazers_count: z.number(),
  created_at: upstreamTimestamp,
  updated_at: upstreamTimestamp,
});

const issueCommentShape = z.object({
  ...itemIds,
  body: z.string().nullish(),
  user: userShape.nullish(),
  created_at: upstreamTimestamp,
});

const searchResultShape = <Item extends z.ZodType>(item: Item) => z.object({ total_count: z.number().optional(), items: upstreamItems(item) });

export type GitHubUser = z.infer<typeof userShape>;
export type GitHubIssue = z.infer<typeof issueShape>;
export type GitHubRepository = z.infer<typeof repositoryShape>;
export type GitHubIssueComment = z.infer<typeof issueCommentShape>;

/** Next page of each search; null once that search has nothing more within `since`. */
interface SearchCursor {
  issues: number | null;
  pullRequests: number | null;
  repositories: number | null;
}

const perPageMaximum = 100;
/** GitHub search serves the first 1,000 results of a query, no further. */
const searchResultsCeiling = 1000;
const commentPagesCeiling = 10;

/**
 * GitHub's "wait" signals besides 429/5xx: a 403 or 429 with
 * `X-RateLimit-Remaining: 0` lasts until `X-RateLimit-Reset`; a secondary
 * rate limit without `Retry-After` asks for at least a minute.
 */
function gitHubRateLimitWaitMs(response: UpstreamResponse): number | undefined {
  if (response.status !== 403 && response.status !== 429) return undefined;
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  if (response.headers.get('x-ratelimit-remaining') === '0' && Number.isFinite(reset)) return Math.max(0, reset * 1000 - Date.now());
  if (/secondary rate limit/i.test(response.text)) return 60_000;
  return undefined;
}

export function createGitHubConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  const base = upstreamBase('github', 'https://api.github.com', env);
  const token = env.EARSHOT_GITHUB_TOKEN;
  const headers: Record<string, string> = {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };

  const get = async <Schema extends z.ZodType>(path: string, schema: Schema, params: Record<string, string>): Promise<z.infer<Schema>> => {
    const url = new URL(`${base}${path}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const body = await getUpstreamJson<unknown>({ platform: 'github', url, headers, platformWaitMs: gitHubRateLimitWaitMs, ...options.retry });
    return parseUpstreamShape('github', schema, body, options.logger);
  };

  /** One page of a search, newest first, and the next page's number while results remain within `since`. */
  async function searchPage<Item extends z.ZodType>(
    path: string,
    item: Item,
    search: { q: string; sort: string; page: number; perPage: number; since: Date },
    publishedAt: (item: z.infer<Item>) => string,
  ): Promise<{ items: z.infer<Item>[]; nextPage: number | null }> {
    const { q, sort, page, perPage, since } = search;
    const result = await get(path, searchResultShape(item), { q, sort, order: 'desc', per_page: String(perPage), page: String(page) });
    const items = result.items.filter((item) => new Date(publishedAt(item)) >= since);
    const total = result.total_count ?? searchResultsCeiling;
    const more = items.length === result.items.length && result.items.length === perPage && page * perPage < Math.min(total, searchResultsCeiling);
    return { items, nextPage: more ? page + 1 : null };
  }

  return {
    platform: 'github',

    /**
     * The three searches page side by side; the cursor holds each one's next page.
     * Issues and pull requests are the mentions; repositories only add star
     * observations, so a repository search that fails (refused, rate-limited,
     * not served by a proxy) leaves them out of this poll instead of losing
     * the issues found beside it.
     */
    async search(query: SearchQuery) {
      const cursor: SearchCursor = query.cursor ? JSON.parse(query.cursor) : { issues: 1, pullRequests: 1, repositories: 1 };
      const perPage = pageSize(query, perPageMaximum);
      const term = searchText(query);
      const sinceDay = query.since.toISOString().slice(0, 10);
      // Issue search answers 422 to a query naming neither kind ("Query must include 'is:issue' or 'is:pull-request'"), and one query is one kind.
      const issueSearch = (kind: 'issue' | 'pull-request', page: number | null) => (page === null
        ? null
        : searchPage('/search/issues', issueShape, { q: `${term} is:${kind} in:title,body created:>=${sinceDay}`, sort: 'created', page, perPage, since: query.since }, (issue) => issue.created_at));
      const [issues, pullRequests, repositories] = await Promise.all([
        issueSearch('issue', cursor.issues),
        issueSearch('pull-request', cursor.pullRequests),
        cursor.repositories === null
          ? null
          : searchPage('/search/repositories', repositoryShape, { q: `${term} in:name,description,readme`, sort: 'updated', page: cursor.repositories, perPage, since: query.since }, (repository) => repository.updated_at)
            .catch(whenUpstreamFails(() => null)),
      ]);
      const next: SearchCursor = { issues: issues?.nextPage ?? null, pullRequests: pullRequests?.nextPage ?? null, repositories: repositories?.nextPage ?? null };
      return {
        posts: [...(issues?.items ?? []), ...(pullRequests?.items ?? [])]
          .map(issueToPost)
          .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())
          .concat(repositories?.items.map(repositoryToPost) ?? []),
        nextCursor: Object.values(next).every((page) => page === null) ? null : JSON.stringify(next),
      };
    },

    /** Comments of an issue or pull request; a repository has none. */
    async comments(post, since, limit) {
      const [, owner, repo, number] = post.url.match(/^https:\/\/github\.com\/([^/]+)\/([^/]+)\/(?:issues|pull)\/(\d+)/) ?? [];
      if (!number) return [];
      // The endpoint lists oldest first and `since` filters by last update, so read every page and pick the newest created.
      const comments: GitHubIssueComment[] = [];
      for (let page = 1; page <= commentPagesCeiling; page++) {
        const batch = await get(`/repos/${owner}/${repo}/issues/${number}/comments`, upstreamItems(issueCommentShape), {
          since: since.toISOString(),
          per_page: String(perPageMaximum),
          page: String(page),
        });
        comments.push(...batch);
        if (batch.length < perPageMaximum) break;
      }
      return comments
        .filter((comment) => new Date(comment.created_at) > since)
        .sort((a, b) => b.created_at.localeCompare(a.created_at))
        .slice(0, limit)
        .map((comment) => commentToPost(comment, post.url));
    },
  };
}

/** The account GitHub shows in place of a deleted one. */
const ghost: GitHubUser = { login: 'ghost', id: 10137 };

function author(account: GitHubUser | null | undefined): NormalizedAuthor {
  const { login, id, html_url: url, avatar_url: avatarUrl } = account ?? ghost;
  return { platformId: String(id ?? login), name: login, handle: login, url: url ?? `https://github.com/${login}`, avatarUrl: avatarUrl ?? null, followers: null };
}

function externalId(item: { node_id?: string | null; id?: number | string | null; html_url: string }): string {
  return item.node_id ?? (item.id != null ? String(item.id) : item.html_url);
}

function issueToPost(issue: GitHubIssue): NormalizedPost {
  return {
    platform: 'github',
    externalId: externalId(issue),
    url: issue.html_url,
    ...titledText(issue.title, issue.body),
    publishedAt: new Date(issue.created_at),
    replyTo: null,
    links: linksInText(issue.body ?? ''),
    author: author(issue.user),
  };
}

/**
 * A repository is re-observed on every poll for its star count, so its post
 * is dated by its last update (what the search sorts and `since` cuts by);
 * its creation date travels in `repository.createdAt`.
 */
function repositoryToPost(repository: GitHubRepository): NormalizedPost {
  return {
    platform: 'github',
    externalId: externalId(repository),
    url: repository.html_url,
    ...titledText(repository.full_name, repository.description),
    publishedAt: new Date(repository.updated_at),
    replyTo: null,
    links: uniqueLinks(/^https?:\/\//i.test(repository.homepage ?? '') ? [repository.homepage] : [], linksInText(repository.description ?? '')),
    author: author(repository.owner),
    repository: {
      fullName: repository.full_name,
      stars: repository.stargazers_count,
      // Weekly gains need the star history, one call per hundred stargazers: too dear to fetch on every poll.
      starsLastWeek: null,
      createdAt: new Date(repository.created_at),
    },
  };
}

function commentToPost(comment: GitHubIssueComment, issueUrl: string): NormalizedPost {
  return {
    platform: 'github',
    externalId: externalId(comment),
    url: comment.html_url,
    text: (comment.body ?? '').trim(),
    publishedAt: new Date(comment.created_at),
    replyTo: issueUrl,
    links: linksInText(comment.body ?? ''),
    author: author(comment.user),
  };
}
