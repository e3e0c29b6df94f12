import postgres from 'postgres';
import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import type { ChargeTotalRow } from '../billing/index.ts';
import { domainError } from '../domain-error.ts';
import type { KeywordKind } from '../../vocabulary/keyword-kinds.ts';

export type CapPeriod = 'day' | 'week' | 'month';

/** A keyword row as stored; feeds and review sources live in their own tables. */
export interface KeywordRow {
  id: string;
  workspaceId: string;
  groupId: string;
  term: string;
  kind: KeywordKind;
  muted: boolean;
  pausedForBalance: boolean;
  pausedForNoise: boolean;
  pausedForCap: boolean;
  capMentions: number | null;
  capPer: CapPeriod | null;
  commentsEnabled: boolean;
  commentsMaxPerPost: number;
  platforms: string[] | null;
  context: string | null;
  requiredTerms: string[];
  requiredMode: 'any' | 'all';
  excludedTerms: string[];
  excludedAuthors: string[];
  caseSensitive: boolean;
  exactPhrase: boolean;
  subredditsOnly: string[];
  subredditsExcluded: string[];
  repositoryEvents: string[];
  repositoryMinStars: number | null;
  repositoryMinWeeklyStars: number | null;
  judgedSince: Date | null;
  /** When it last took a new term (a rename); null when never renamed. */
  termSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The writable columns of a keyword, as the domain functions hand them over. */
export type KeywordSettings = Omit<KeywordRow, 'id' | 'workspaceId' | 'createdAt' | 'updatedAt'>;

export interface KeywordFeedRow {
  keywordId: string;
  url: string;
  title: string | null;
  connectedAt: Date;
  etag: string | null;
  lastModified: string | null;
}

export interface ReviewSourceRow {
  keywordId: string;
  platform: 'appstore' | 'googleplay' | 'trustpilot' | 'googlemaps';
  sourceId: string;
  url: string;
  countries: string[];
  language: string | null;
  connectedAt: Date;
}

export interface KeywordPollRow {
  keywordId: string;
  platform: string;
  lastPolledAt: Date | null;
  emptyPolls: number;
  lastError: string | null;
  lastErrorAt: Date | null;
}

const settingColumns = [
  'group_id', 'term', 'kind', 'muted', 'paused_for_balance', 'paused_for_noise', 'paused_for_cap', 'cap_mentions',
  'cap_per', 'comments_enabled', 'comments_max_per_post', 'platforms', 'context', 'required_terms', 'required_mode',
  'excluded_terms', 'excluded_authors', 'case_sensitive', 'exact_phrase', 'subreddits_only', 'subreddits_excluded',
  'repository_events', 'repository_min_stars', 'repository_min_weekly_stars', 'judged_since',
  'term_since',
] as const;


function settingValues(settings: Partial<KeywordSettings>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(settings)) {
    const column = postgres.fromCamel(field);
    if ((settingColumns as readonly string[]).includes(column)) values[column] = value;
  }
  return values;
}

/**
 * The domain error a failed keyword write stands for, the database's own
 * kept as its cause: a term the group already tracks (in any case) is
 * `duplicate_keyword` (spec 2.2: a group tracks a term once). `term` names
 * it when the caller knows which; without it the write was a group's
 * keywords moving into the default group. Anything else is returned as it is.
 */
export function translateKeywordWriteError(error: unknown, term?: string): unknown {
  const { code, constraint_name: constraint } = error as { code?: string; constraint_name?: string };
  if (code !== '23505' || constraint !== 'keywords_term_per_group') return error;
  return term === undefined
    ? domainError('duplicate_keyword', 'The default group already tracks one of the terms of this group', {}, error)
    : domainError('duplicate_keyword', `The group already tracks "${term}"`, { field: 'term' }, error);
}

export async function insertKeyword(sql: Queryable, workspaceId: string, settings: KeywordSettings): Promise<KeywordRow> {
  const [row] = await sql<KeywordRow[]>`
    /* insertKeyword */
    insert into keywords ${sql({ id: newId('kw'), workspace_id: workspaceId, ...settingValues(settings) })}
    returning *`;
  return row;
}

export async function updateKeyword(sql: Queryable, workspaceId: string, id: string, changes: Partial<KeywordSettings>): Promise<KeywordRow | undefined> {
  const values = settingValues(changes);
  if (Object.keys(values).length === 0) return findKeyword(sql, workspaceId, id);
  const [row] = await sql<KeywordRow[]>`
    /* updateKeyword */
    update keywords set ${sql({ ...values, updated_at: sql`now()` } as Record<string, unknown>)}
    where id = ${id} and workspace_id = ${workspaceId}
    returning *`;
  return row;
}

export async function findKeyword(sql: Queryable, workspaceId: string, id: string): Promise<KeywordRow | undefined> {
  const [row] = await sql<KeywordRow[]>`
    /* findKeyword */
    select * from keywords where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

/** A keyword by id alone, for jobs that act on it outside any request. */
export async function findKeywordById(sql: Queryable, id: string): Promise<KeywordRow | undefined> {
  const [row] = await sql<KeywordRow[]>`
    /* findKeywordById */
    select * from keywords where id = ${id}`;
  return row;
}

/** Keywords by id across workspaces, for jobs (scoring reads each mention's keyword). */
export async function findKeywordsByIdsAnyWorkspace(sql: Queryable, ids: readonly string[]): Promise<KeywordRow[]> {
  return sql<KeywordRow[]>`
    /* findKeywordsByIdsAnyWorkspace */
    select * from keywords where id = any(${sql.array(ids as string[])})`;
}

/** The ids among `ids` that name no keyword of the workspace: the mentions subgraph's check of a filter's keywords (KeywordDirectory). */
export async function keywordIdsOutsideWorkspace(sql: Queryable, workspaceId: string, ids: readonly string[], options: { hold?: boolean } = {}): Promise<string[]> {
  if (ids.length === 0) return [];
  // Held in id order, so two holders never wait for each other in a circle.
  const rows = await sql<{ id: string }[]>`
    /* keywordIdsOfWorkspace */
    select id from keywords where workspace_id = ${workspaceId} and id = any(${sql.array(ids as string[])})
    order by id ${options.hold ? sql`for key share` : sql``}`;
  const found = new Set(rows.map((row) => row.id));
  return ids.filter((id) => !found.has(id));
}

/** The term of each keyword of the workspace by id: the mentions subgraph's CSV export (KeywordDirectory). */
export async function keywordTermsOfWorkspace(sql: Queryable, workspaceId: string): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; term: string }[]>`
    /* keywordTermsOfWorkspace */
    select id, term from keywords where workspace_id = ${workspaceId}`;
  return new Map(rows.map((row) => [row.id, row.term]));
}

/** Locks the keyword row for a read-modify-write in one transaction. */
export async function findKeywordForUpdate(sql: Queryable, workspaceId: string, id: string): Promise<KeywordRow | undefined> {
  const [row] = await sql<KeywordRow[]>`
    /* findKeywordForUpdate */
    select * from keywords where id = ${id} and workspace_id = ${workspaceId} for update`;
  return row;
}

export async function findKeywordsByIds(sql: Queryable, workspaceId: string, ids: readonly string[]): Promise<KeywordRow[]> {
  return sql<KeywordRow[]>`
    /* findKeywordsByIds */
    select * from keywords where workspace_id = ${workspaceId} and id = any(${sql.array(ids as string[])})`;
}

/** Which keywords a page holds: the workspace's (of one group, when given) in id (creation) order, after the cursor's id. */
export interface KeywordPageBounds {
  after: string | null;
  limit: number;
  groupId?: string | null;
}

const keywordPageSql = (sql: Queryable, workspaceId: string, page: KeywordPageBounds) => sql`
    select * from keywords
    where workspace_id = ${workspaceId}
      ${page.after ? sql`and id > ${page.after}` : sql``}
      ${page.groupId ? sql`and group_id = ${page.groupId}` : sql``}
    order by id
    limit ${page.limit}`;

/** A page of the workspace's keywords in id (creation) order, after the cursor's id. */
export async function listKeywordsPage(sql: Queryable, workspaceId: string, page: KeywordPageBounds): Promise<KeywordRow[]> {
  return sql<KeywordRow[]>`
    /* listKeywordsPage */
    ${keywordPageSql(sql, workspaceId, page)}`;
}

/** Subqueries of the figures a page's stats read, built over the keywords the page shows. */
export interface KeywordPageStatsSql {
  /** Over the page's match windows, `(keyword_id, since)` rows: a subquery of rows with `keyword_id`. */
  matchCounts: (windows: postgres.Fragment) => postgres.Fragment;
  /** Over the page's keyword ids (`id`): a subquery of rows with `key`, the keyword's id. */
  monthCosts: (ids: postgres.Fragment) => postgres.Fragment;
}

/** A keyword of the page, with its stats' rows (`json_agg`) when it is shown, null for the one past the page. */
export type KeywordRowWithStats = KeywordRow & { matchCounts: Record<string, unknown>[] | null; monthCosts: ChargeTotalRow[] | null };

/**
 * A page of keywords (`limit` and one more, which says whether a next page
 * exists) and, for the `limit` shown, the rows of their match counts and
 * month costs, in one statement: the page is read once, and its match
 * windows are each keyword's from `windowStart`, and from its last change
 * of rules when that is later (the health window of
 * keyword-health-report.ts, to the millisecond as the keyword row reads it).
 */
export async function listKeywordsPageWithStatsRows(
  sql: Queryable,
  workspaceId: string,
  page: KeywordPageBounds,
  windowStart: Date,
  stats: KeywordPageStatsSql,
): Promise<KeywordRowWithStats[]> {
  return sql<KeywordRowWithStats[]>`
    /* listKeywordsPageWithStats */
    with page as (${keywordPageSql(sql, workspaceId, { ...page, limit: page.limit + 1 })}),
    shown as (select id, judged_since from page order by id limit ${page.limit}),
    match_counts as materialized (${stats.matchCounts(sql`
      select id as keyword_id, ${windowStart}::timestamptz as since from shown
      union all
      select id, date_trunc('milliseconds', judged_since) from shown
      where date_trunc('milliseconds', judged_since) > ${windowStart}`)}),
    month_costs as materialized (${stats.monthCosts(sql`select id from shown`)})
    select page.*,
           (select json_agg(match_counts) from match_counts where match_counts.keyword_id = page.id) as match_counts,
           (select json_agg(month_costs) from month_costs where month_costs.key = page.id) as month_costs
    from page
    order by page.id`;
}

/** Every keyword of the workspace by term, case ignored, then creation: the compatibility API's whole list (spec 4.8). */
export async function listKeywordsByTerm(sql: Queryable, workspaceId: string): Promise<KeywordRow[]> {
  return sql<KeywordRow[]>`
    /* listKeywordsByTerm */
    select * from keywords where workspace_id = ${workspaceId} order by lower(term), id`;
}

/** The oldest keyword of the workspace tracking `term` in any group, case ignored. */
export async function findKeywordByTerm(sql: Queryable, workspaceId: string, term: string): Promise<KeywordRow | undefined> {
  const [row] = await sql<KeywordRow[]>`
    /* findKeywordByTerm */
    select * from keywords where workspace_id = ${workspaceId} and lower(term) = lower(${term}) order by id limit 1`;
  return row;
}

export async function deleteKeyword(sql: Queryable, workspaceId: string, id: string): Promise<boolean> {
  const rows = await sql`
    /* deleteKeyword */
    delete from keywords where id = ${id} and workspace_id = ${workspaceId} returning id`;
  return rows.length > 0;
}

export async function listFeeds(sql: Queryable, keywordIds: readonly string[]): Promise<KeywordFeedRow[]> {
  return sql<KeywordFeedRow[]>`
    /* listFeeds */
    select keyword_id, url, title, connected_at, etag, last_modified
    from keyword_feeds where keyword_id = any(${sql.array(keywordIds as string[])}) order by keyword_id, position`;
}

/**
 * Replaces a keyword's feeds with `feeds` in the given order; a feed kept
 * from before keeps its `connectedAt` and validators (spec 4.2: the list is
 * replaced, but nothing published before a feed's connection is live).
 */
export async function replaceFeeds(sql: Queryable, keywordId: string, feeds: { url: string; title: string | null }[]): Promise<void> {
  await sql`
    /* dropRemovedFeeds */
    delete from keyword_feeds where keyword_id = ${keywordId} and not (url = any(${sql.array(feeds.map((f) => f.url))}))`;
  for (const [position, feed] of feeds.entries()) {
    await sql`
      /* upsertFeed */
      insert into keyword_feeds (keyword_id, position, url, title) values (${keywordId}, ${position}, ${feed.url}, ${feed.title})
      on conflict (keyword_id, url) do update set position = excluded.position, title = coalesce(excluded.title, keyword_feeds.title)`;
  }
}

/** Remembers a feed's validators for the next conditional GET. */
export async function saveFeedValidators(sql: Queryable, keywordId: string, url: string, validators: { etag: string | null; lastModified: string | null }): Promise<void> {
  await sql`
    /* saveFeedValidators */
    update keyword_feeds set etag = ${validators.etag}, last_modified = ${validators.lastModified}
    where keyword_id = ${keywordId} and url = ${url}`;
}

export async function listReviewSources(sql: Queryable, keywordIds: readonly string[]): Promise<ReviewSourceRow[]> {
  return sql<ReviewSourceRow[]>`
    /* listReviewSources */
    select keyword_id, platform, source_id, url, countries, language, connected_at
    from keyword_review_sources where keyword_id = any(${sql.array(keywordIds as string[])}) order by keyword_id, position`;
}

/** Replaces a keyword's review sources; a source kept from before keeps its `connectedAt`. */
export async function replaceReviewSources(
  sql: Queryable,
  keywordId: string,
  sources: Omit<ReviewSourceRow, 'keywordId' | 'connectedAt'>[],
): Promise<void> {
  await sql`
    /* dropRemovedReviewSources */
    delete from keyword_review_sources
    where keyword_id = ${keywordId}
      and not ((platform || ':' || source_id) = any(${sql.array(sources.map((s) => `${s.platform}:${s.sourceId}`))}))`;
  for (const [position, source] of sources.entries()) {
    await sql`
      /* upsertReviewSource */
      insert into keyword_review_sources (keyword_id, position, platform, source_id, url, countries, language)
      values (${keywordId}, ${position}, ${source.platform}, ${source.sourceId}, ${source.url}, ${sql.array(source.countries)}, ${source.language})
      on conflict (keyword_id, platform, source_id) do update set
        position = excluded.position, url = excluded.url, countries = excluded.countries, language = excluded.language`;
  }
}

export async function listPolls(sql: Queryable, keywordIds: readonly string[]): Promise<KeywordPollRow[]> {
  return sql<KeywordPollRow[]>`
    /* listPolls */
    select keyword_id, platform, last_polled_at, empty_polls, last_error, last_error_at
    from keyword_polls where keyword_id = any(${sql.array(keywordIds as string[])}) order by keyword_id, platform`;
}
