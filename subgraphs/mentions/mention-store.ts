import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import type { Intent } from '../../vocabulary/classification-values.ts';
import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';
import { domainError } from '../domain-error.ts';
import { sendableMentionFilter } from './alert-filter.ts';
import type { AlertFilter } from './alert-rule-input.ts';
import { attachPeople, linkPeople } from './person-linking.ts';
import type { AuthorSighting } from './person-store.ts';
import { authorProfile } from './profile-links.ts';
import { relevantSql } from './relevance.ts';
import { newestFirstWindows } from './mention-month-windows.ts';
import { type MonthWindow, timeBoundInText } from '../month-windows.ts';
import { type MentionSort, mentionFilterSql, type NestedCondition, type ResolvedMentionFilter } from './mention-filter.ts';

/** A mention with its post and author, as every read shows it (spec 2.4). */
export interface MentionRow {
  id: string;
  workspaceId: string;
  keywordId: string;
  postId: string;
  status: 'open' | 'done' | 'ignored';
  fuzzy: boolean;
  delivered: boolean;
  priority: number;
  createdAt: Date;
  platform: string;
  /** The platform's id of the post. */
  externalId: string;
  url: string;
  text: string;
  /** Where the platform gives the post one; `text` holds it too. */
  title: string | null;
  publishedAt: Date;
  replyTo: string | null;
  links: string[];
  subreddit: string | null;
  authorId: string;
  authorName: string;
  authorHandle: string;
  authorUrl: string;
  authorAvatarUrl: string | null;
  authorFollowers: number | null;
  authorTags: string[];
  relevance: number | null;
  sentiment: 'positive' | 'negative' | 'neutral' | null;
  intents: string[] | null;
  automated: boolean | null;
  language: string | null;
  classificationNote: string | null;
  classificationFailed: boolean;
  classifiedAt: Date | null;
  verdictRelevant: boolean | null;
  /** The score a relevant verdict set (the compatibility API's write sets 100), shown in place of `relevance`; null keeps the classifier's in view. */
  verdictRelevance: number | null;
  verdictSentiment: 'positive' | 'negative' | 'neutral' | null;
  assigneeId: string | null;
  snoozedUntil: Date | null;
  triageNote: string | null;
}

/** One keyword's match of a post, as the matcher reports it. */
export interface PostMatch {
  keywordId: string;
  workspaceId: string;
  fuzzy: boolean;
}

/** The channel `mentionCreated` listens on; its payload is `{ id, workspaceId }`. */
export const mentionCreatedChannel = 'earshot_mention_created';
/** The channel `mentionUpdated` listens on (triage, verdicts, scores), with the same payload. */
export const mentionUpdatedChannel = 'earshot_mention_updated';

/** The columns of MentionRow, over `mentions m join posts p join authors a`. */
export const mentionColumns = (sql: Queryable) => sql`
  m.id, m.workspace_id, m.keyword_id, m.post_id, m.status, m.fuzzy, m.delivered, m.priority, m.created_at,
  p.platform, p.external_id, p.url, p.text, p.title, p.published_at, p.reply_to, p.links, p.subreddit,
  a.id as author_id, a.name as author_name, a.handle as author_handle, a.url as author_url,
  a.avatar_url as author_avatar_url, a.followers as author_followers, a.tags as author_tags,
  m.relevance, m.sentiment, m.intents, m.automated, m.language, m.classification_note, m.classification_failed,
  m.classified_at, m.verdict_relevant, m.verdict_relevance, m.verdict_sentiment, m.assignee_id, m.snoozed_until, m.triage_note`;

/** A post and the keywords that matched it. */
export interface MatchedPost {
  post: NormalizedPost;
  matches: readonly PostMatch[];
}

// A platform name holds no NUL, so the key tells every (platform, id) pair apart.
const postKey = (post: NormalizedPost) => `${post.platform}\u0000${post.externalId}`;
const authorKey = (post: NormalizedPost) => `${post.platform}\u0000${post.author.platformId}`;

/**
 * The batch as storing its posts one after another would leave them: a post
 * seen twice keeps its first fields and author but its last text and title,
 * and takes the keywords of both; an author seen twice keeps the last fields and the
 * last follower count and profile links known. One row each, because one upsert statement
 * cannot touch a row twice.
 */
function mergeRepeats(items: readonly MatchedPost[]) {
  const posts = new Map<string, { post: NormalizedPost; text: string; title: string | null; matches: Map<string, PostMatch> }>();
  const authors = new Map<string, NormalizedPost['author'] & { platform: string }>();
  for (const { post, matches } of items) {
    if (matches.length === 0) continue;
    const seen = posts.get(postKey(post)) ?? { post, text: post.text, title: null, matches: new Map<string, PostMatch>() };
    seen.text = post.text;
    seen.title = post.title ?? seen.title;
    for (const match of matches) if (!seen.matches.has(match.keywordId)) seen.matches.set(match.keywordId, match);
    posts.set(postKey(post), seen);
    const before = authors.get(authorKey(post));
    const followers = post.author.followers ?? before?.followers ?? null;
    authors.set(authorKey(post), { ...post.author, platform: post.platform, followers, links: post.author.links ?? before?.links });
  }
  return { posts: [...posts.values()], authors: [...authors.values()] };
}

/**
 * New mention ids, ascending in their posts' publication order (the same
 * order as the items for posts published at once). A batch's mentions share
 * their match time, and lists newest match first (spec 4.3) break that tie
 * by id, so a keyword's look-back reads newest post first rather than in
 * the ids' random order.
 */
function withIdsInPublicationOrder<Mention extends { post: NormalizedPost }>(mentions: Mention[]): (Mention & { id: string })[] {
  const ids = mentions.map(() => newId('mm')).sort();
  const byPublication = mentions.map((_, index) => index).sort((a, b) => mentions[a].post.publishedAt.getTime() - mentions[b].post.publishedAt.getTime());
  const idOf: string[] = [];
  byPublication.forEach((index, rank) => (idOf[index] = ids[rank]));
  return mentions.map((mention, index) => ({ id: idOf[index], ...mention }));
}

/**
 * Writes the batch's authors: new ones inserted, known ones updated only
 * where a field changed, in key order. A known author whose fields did not
 * change is neither written nor locked, so workers storing posts of the same
 * authors do not queue behind each other's transactions (issue 18); two
 * workers changing the same authors lock them in the same order and wait
 * instead of deadlocking. Returns the ids of the authors inserted or changed.
 */
async function upsertAuthors(sql: Queryable, authors: readonly (NormalizedPost['author'] & { platform: string })[]): Promise<Set<string>> {
  const profiles = authors.map(authorProfile);
  const written = await sql<{ id: string }[]>`
    /* upsertAuthors */
    with incoming as (
      select t.id, t.platform, t.platform_id, t.name, t.handle, t.url, t.avatar_url, t.followers, t.profile_key,
             case when t.link_keys is not null then array(select jsonb_array_elements_text(t.link_keys)) end as link_keys,
             case when t.profile_links is not null then array(select jsonb_array_elements_text(t.profile_links)) end as profile_links
      from unnest(${sql.array(authors.map(() => newId('aut')))}::text[],
                  ${sql.array(authors.map((author) => author.platform))}::text[],
                  ${sql.array(authors.map((author) => author.platformId))}::text[],
                  ${sql.array(authors.map((author) => author.name))}::text[],
                  ${sql.array(authors.map((author) => author.handle))}::text[],
                  ${sql.array(authors.map((author) => author.url))}::text[],
                  ${sql.array(authors.map((author) => author.avatarUrl))}::text[],
                  ${sql.array(authors.map((author) => author.followers))}::int[],
                  ${sql.array(profiles.map((profile) => profile.profileKey))}::text[],
                  ${sql.array(profiles.map((profile) => profile.linkKeys && JSON.stringify(profile.linkKeys)))}::jsonb[],
                  ${sql.array(profiles.map((profile) => profile.links && JSON.stringify(profile.links)))}::jsonb[])
             as t(id, platform, platform_id, name, handle, url, avatar_url, followers, profile_key, link_keys, profile_links)
    ), inserted as (
      insert into authors (id, platform, platform_id, name, handle, url, avatar_url, followers, profile_key, link_keys, profile_links)
      select id, platform, platform_id, name, handle, url, avatar_url, followers, profile_key, link_keys, profile_links
      from incoming
      order by platform, platform_id
      on conflict (platform, platform_id) do nothing
      returning id
    ), changed as (
      select a.id, i.name, i.handle, i.url, i.avatar_url, coalesce(i.followers, a.followers) as followers, i.profile_key,
             coalesce(i.link_keys, a.link_keys) as link_keys, coalesce(i.profile_links, a.profile_links) as profile_links
      from authors a join incoming i on i.platform = a.platform and i.platform_id = a.platform_id
      where (a.name, a.handle, a.url, a.avatar_url, a.followers, a.profile_key, a.link_keys, a.profile_links)
            is distinct from (i.name, i.handle, i.url, i.avatar_url, coalesce(i.followers, a.followers), i.profile_key,
                              coalesce(i.link_keys, a.link_keys), coalesce(i.profile_links, a.profile_links))
      order by a.platform, a.platform_id
      for update of a
    ), updated as (
      update authors a set
        name = c.name, handle = c.handle, url = c.url, avatar_url = c.avatar_url, followers = c.followers,
        profile_key = c.profile_key, link_keys = c.link_keys, profile_links = c.profile_links, updated_at = now()
      from changed c where a.id = c.id
      returning a.id
    )
    select id from inserted union all select id from updated`;
  return new Set(written.map((row) => row.id));
}

/** A mention as storing it knows it: what charging, scoring and linking its author need, without reading the row back. */
export interface StoredMention {
  id: string;
  workspaceId: string;
  keywordId: string;
  postId: string;
  authorId: string;
  fuzzy: boolean;
}

/** Mentions just stored, and the sightings of their authors that may prove two people one (see linkPeople). */
export interface StoredMentions {
  mentions: StoredMention[];
  sightingsToLink: AuthorSighting[];
}

/**
 * Stores each post once (its author once per platform account, see
 * upsertAuthors) and one mention per matching keyword, skipping keywords
 * that already hold the post (the unique key of `mention_keys`, written in
 * the same statement), in one statement after the authors'. A mention's
 * publication time is its post's, or its match time when the platform
 * dates the post later (a clock ahead): analytics bounds a range of
 * publication times by match time, its partition key; its link domains
 * are its post's, which the `linkHosts` filters read there (migration 074).
 * Posts are written in key order, so two workers storing overlapping batches wait
 * for each other instead of deadlocking. Every author new to a workspace
 * becomes a person there (attachPeople); merging it with the people it
 * shares a verified link with is left to the caller (linkPeople of
 * `sightingsToLink`), once the storing transaction has committed. Returns
 * only the mentions created now, in the order of `items` and their matches,
 * as the storing statement tells them (findMentionsByIds reads whole rows).
 * Nothing is charged or announced here: scoring does both (recordScores),
 * so a mention never scored is never billed (2.5 `unscored`).
 */
export async function storeMatchedPostsUnlinked(sql: Queryable, items: readonly MatchedPost[]): Promise<StoredMentions> {
  const { posts, authors } = mergeRepeats(items);
  if (posts.length === 0) return { mentions: [], sightingsToLink: [] };
  const mentions = withIdsInPublicationOrder(posts.flatMap(({ post, matches }) => [...matches.values()].map((match) => ({ post, ...match }))));
  const changedAuthors = await upsertAuthors(sql, authors);
  const created = await sql<{ id: string; postId: string; authorId: string }[]>`
    /* storeMatchedPosts */
    with post as (
      insert into posts (id, platform, external_id, url, text, title, published_at, reply_to, links, author_id, subreddit, rating)
      select t.id, t.platform, t.external_id, t.url, t.text, t.title, t.published_at, t.reply_to,
             array(select jsonb_array_elements_text(t.links)), author.id, t.subreddit, t.rating
      from unnest(${sql.array(posts.map(() => newId('pst')))}::text[],
                  ${sql.array(posts.map(({ post }) => post.platform))}::text[],
                  ${sql.array(posts.map(({ post }) => post.externalId))}::text[],
                  ${sql.array(posts.map(({ post }) => post.url))}::text[],
                  ${sql.array(posts.map(({ text }) => text))}::text[],
                  ${sql.array(posts.map(({ title }) => title))}::text[],
                  ${sql.array(posts.map(({ post }) => post.publishedAt.toISOString()))}::timestamptz[],
                  ${sql.array(posts.map(({ post }) => post.replyTo))}::text[],
                  ${sql.array(posts.map(({ post }) => JSON.stringify(post.links)))}::jsonb[],
                  ${sql.array(posts.map(({ post }) => post.author.platformId))}::text[],
                  ${sql.array(posts.map(({ post }) => post.subreddit ?? null))}::text[],
                  ${sql.array(posts.map(({ post }) => post.rating ?? null))}::smallint[])
             as t(id, platform, external_id, url, text, title, published_at, reply_to, links, author_platform_id, subreddit, rating)
      join authors author on author.platform = t.platform and author.platform_id = t.author_platform_id
      order by t.platform, t.external_id
      on conflict (platform, external_id) do update set text = excluded.text, title = coalesce(excluded.title, posts.title)
      returning id, platform, external_id, published_at, author_id, link_domains
    ), matched as (
      select t.id, t.workspace_id, t.keyword_id, post.id as post_id, post.author_id, t.fuzzy, post.published_at, post.platform, post.link_domains,
             date_trunc('milliseconds', now()) as created_at
      from unnest(${sql.array(mentions.map((mention) => mention.id))}::text[],
                  ${sql.array(mentions.map((mention) => mention.post.platform))}::text[],
                  ${sql.array(mentions.map((mention) => mention.post.externalId))}::text[],
                  ${sql.array(mentions.map((mention) => mention.keywordId))}::text[],
                  ${sql.array(mentions.map((mention) => mention.workspaceId))}::text[],
                  ${sql.array(mentions.map((mention) => mention.fuzzy))}::boolean[])
             as t(id, platform, external_id, keyword_id, workspace_id, fuzzy)
      join post on post.platform = t.platform and post.external_id = t.external_id
    ), keyed as (
      insert into mention_keys (id, keyword_id, post_id, created_at)
      select id, keyword_id, post_id, created_at from matched
      on conflict (keyword_id, post_id) do nothing
      returning id
    ), inserted as (
      insert into mentions (id, workspace_id, keyword_id, post_id, fuzzy, published_at, platform, link_domains, created_at)
      select id, workspace_id, keyword_id, post_id, fuzzy, least(published_at, created_at), platform, link_domains, created_at
      from matched
      -- When every match got its key (the usual batch: no post stored before with one of its keywords), the counts
      -- say so once, and only otherwise is each match looked up among the keys. As a join, PostgreSQL planned
      -- both lists at a row each and read every key for every match (62,500 pairs in a batch of 250).
      where (select count(*) from keyed) = (select count(*) from matched) or id in (select id from keyed)
      returning id
    )
    -- The mentions inserted, told by the same counts; alone, the IN is planned as a loop over every pair, as the join was.
    select id, post_id, author_id from matched
    where (select count(*) from keyed) = (select count(*) from matched) or id in (select id from inserted)`;
  const createdById = new Map(created.map((row) => [row.id, row]));
  const stored = mentions.flatMap(({ id, workspaceId, keywordId, fuzzy }) => {
    const row = createdById.get(id);
    return row ? [{ id, workspaceId, keywordId, postId: row.postId, authorId: row.authorId, fuzzy }] : [];
  });
  const newToWorkspace = await attachPeople(sql, stored);
  const changed = stored.filter((mention) => changedAuthors.has(mention.authorId)).map(({ workspaceId, authorId }) => ({ workspaceId, authorId }));
  return { mentions: stored, sightingsToLink: [...newToWorkspace, ...changed] };
}

/** storeMatchedPostsUnlinked with the mentions read back whole, and the people its authors prove to be one merged at once, in the same transaction when given one. */
export async function storeMatchedPosts(sql: Queryable, items: readonly MatchedPost[]): Promise<MentionRow[]> {
  const { mentions, sightingsToLink } = await storeMatchedPostsUnlinked(sql, items);
  const rows = await readStoredMentions(sql, mentions);
  await linkPeople(sql, sightingsToLink);
  return rows;
}

/** Whole rows of mentions storing told of, in the order it told them. */
export async function readStoredMentions(sql: Queryable, mentions: readonly Pick<StoredMention, 'id'>[]): Promise<MentionRow[]> {
  const rows = new Map((await findMentionsByIds(sql, mentions.map((mention) => mention.id))).map((row) => [row.id, row]));
  return mentions.map((mention) => rows.get(mention.id)!);
}

/** One post: storeMatchedPosts of that post alone. */
export async function storeMatchedPost(sql: Queryable, post: NormalizedPost, matches: PostMatch[]): Promise<MentionRow[]> {
  return storeMatchedPosts(sql, [{ post, matches }]);
}

async function announceMentions(sql: Queryable, channel: string, mentions: readonly Pick<MentionRow, 'id' | 'workspaceId'>[]): Promise<void> {
  if (mentions.length === 0) return;
  await sql`
    /* announceMentions */
    select pg_notify(${channel}, json_build_object('id', id, 'workspaceId', workspace_id)::text)
    from unnest(${sql.array(mentions.map((m) => m.id))}::text[], ${sql.array(mentions.map((m) => m.workspaceId))}::text[]) as t(id, workspace_id)`;
}

/** Wakes `mentionCreated` subscribers everywhere; inside a transaction, at its commit. */
export const announceMentionsCreated = (sql: Queryable, mentions: readonly Pick<MentionRow, 'id' | 'workspaceId'>[]) =>
  announceMentions(sql, mentionCreatedChannel, mentions);

/** Wakes `mentionUpdated` subscribers everywhere; inside a transaction, at its commit. */
export const announceMentionsUpdated = (sql: Queryable, mentions: readonly Pick<MentionRow, 'id' | 'workspaceId'>[]) =>
  announceMentions(sql, mentionUpdatedChannel, mentions);

/** Drops mentions that could not be charged (cap or wallet) or that scoring turned away: they were never taken. */
export async function discardMentions(sql: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    /* discardMentions */
    with keys as (delete from mention_keys where id = any(${sql.array(ids as string[])}) returning id, created_at)
    delete from mentions m using keys where m.id = keys.id and m.created_at = keys.created_at`;
}

export async function findMentionsByIds(sql: Queryable, ids: readonly string[]): Promise<MentionRow[]> {
  if (ids.length === 0) return [];
  // One primary-key probe per id, of the keys and then of the mentions: as joins, the planner hashed every key (or
  // every mention) of the table for a batch of a few hundred ids, a read growing with the table on every batch stored.
  return sql<MentionRow[]>`
    /* findMentionsByIds */
    select ${mentionColumns(sql)}
    from unnest(${sql.array(ids as string[])}::text[]) as wanted(id)
    cross join lateral (select id, created_at from mention_keys where id = wanted.id limit 1) k
    cross join lateral (select * from mentions where id = k.id and created_at = k.created_at limit 1) m
    join posts p on p.id = m.post_id join authors a on a.id = p.author_id
    order by m.created_at desc, m.id desc`;
}

export async function findMention(sql: Queryable, workspaceId: string, id: string): Promise<MentionRow | undefined> {
  const [row] = await sql<MentionRow[]>`
    /* findMention */
    select ${mentionColumns(sql)}
    from mention_keys k join mentions m on m.id = k.id and m.created_at = k.created_at
    join posts p on p.id = m.post_id join authors a on a.id = p.author_id
    where k.id = ${id} and m.workspace_id = ${workspaceId}`;
  return row;
}


/**
 * The orders a page can be read in: the list's sorts, and `published`,
 * newest post first, the order of the compatibility API (Octolens lists
 * posts by their timestamp, newest first).
 */
export type MentionOrder = MentionSort | 'published';

/**
 * Where a page starts: the sort key of the last mention of the page before, `at` being its match time to the
 * microsecond (its publication time for `published`).
 */
export type MentionPageStart = { sort: 'newest' | 'published'; at: string; id: string } | { sort: 'priority'; priority: number; at: string; id: string };

/** A listed mention and the time its order reads to the microsecond, which a cursor needs and a Date cannot hold. */
export type ListedMention = MentionRow & { sortAt: string };

const sortAt = (sql: Queryable, order: MentionOrder) =>
  order === 'published'
    ? sql`to_char(m.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    : sql`to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * A limit written into a statement's text rather than sent as a parameter.
 * The list by priority reads every month in one statement, and planning it
 * anew over every month's partition on each call cost more than running it
 * (6.3 against 2.3 ms for the table as it was, at 10,000,000 mentions). A
 * prepared statement keeps its generic plan once that plan is priced no
 * higher than its custom plans with their planning, but a generic plan
 * prices a `limit` parameter as a tenth of the rows, so it never was; with
 * the limit in the text (a page size: at most 100 texts) PostgreSQL keeps
 * the generic plan after its first five calls, one round trip each.
 */
function limitInText(sql: Queryable, limit: number) {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`a page's limit must be a positive integer, not ${limit}`);
  return sql.unsafe(String(limit));
}

/**
 * A page of the workspace's mentions passing `filter` (and `condition`,
 * when given), newest match first, by priority or newest post first, after
 * `after`. The conditions are the whole of what a list shows: the list's
 * defaults are the caller's. Newest match first, it reads a few months at a
 * time, from the cursor's (or this month) back, until the page is full; by
 * priority or by post time, or naming link hosts, every month at once.
 */
export async function listMentionsPage(
  sql: Queryable,
  workspaceId: string,
  page: { filter: ResolvedMentionFilter; condition?: NestedCondition; sort: MentionOrder; after: MentionPageStart | null; limit: number },
): Promise<ListedMention[]> {
  const { after } = page;
  const order =
    page.sort === 'priority'
      ? sql`m.priority desc, m.created_at desc, m.id desc`
      : page.sort === 'published'
        ? sql`m.published_at desc, m.id desc`
        : sql`m.created_at desc, m.id desc`;
  // The time travels as text: postgres.js would send a timestamptz parameter through a Date, losing the microseconds.
  const start =
    after === null
      ? sql``
      : after.sort === 'priority'
        ? sql`and (m.priority, m.created_at, m.id) < (${after.priority}::real, ${after.at}::text::timestamptz, ${after.id})`
        : after.sort === 'published'
          ? sql`and (m.published_at, m.id) < (${after.at}::text::timestamptz, ${after.id})`
          : sql`and (m.created_at, m.id) < (${after.at}::text::timestamptz, ${after.id})`;
  // A link host is rare: read month by month, each month's range of its (workspace, match time) index looked cheaper
  // to the planner than the link index, and a page took 148 ms at 1,000,000 mentions; read at once, 22 ms.
  const everyMonth = page.sort !== 'newest' || (page.filter.linkHosts?.length ?? 0) > 0;
  const windows: MonthWindow[] = everyMonth ? [{ since: null, before: null }] : newestFirstWindows(after ? new Date(after.at) : null, new Date());
  const rows: ListedMention[] = [];
  for (const { since, before } of windows) {
    rows.push(
      ...(await sql<ListedMention[]>`
        /* listMentionsPage */
        select ${mentionColumns(sql)}, ${sortAt(sql, page.sort)} as sort_at
        from mentions m join posts p on p.id = m.post_id join authors a on a.id = p.author_id
        where m.workspace_id = ${workspaceId} and ${mentionFilterSql(sql, page.filter)} and ${page.condition?.(sql) ?? sql`true`} ${start}
          ${timeBoundInText(sql, 'm.created_at', '>=', since)} ${timeBoundInText(sql, 'm.created_at', '<', before)}
        order by ${order}
        limit ${everyMonth ? limitInText(sql, page.limit) : page.limit - rows.length}`),
    );
    if (rows.length >= page.limit) break;
  }
  return rows;
}

/** Of these mentions of the workspace, those passing `filter`, in the order given: the list's decision for each. */
export async function filterMentionIds(sql: Queryable, workspaceId: string, ids: readonly string[], filter: ResolvedMentionFilter): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await sql<{ id: string }[]>`
    /* filterMentionIds */
    select m.id
    from unnest(${sql.array(ids as string[])}::text[]) with ordinality as wanted(id, position)
    join mentions m on m.id = wanted.id join posts p on p.id = m.post_id join authors a on a.id = p.author_id
    where m.workspace_id = ${workspaceId} and ${mentionFilterSql(sql, filter)}
    order by wanted.position`;
  return rows.map((row) => row.id);
}

/** A classifier's result as stored (spec 2.4 `classification`). */
export interface StoredClassification {
  relevance: number;
  sentiment: 'positive' | 'negative' | 'neutral';
  intents: Intent[];
  automated: boolean;
  language: string | null;
  note: string;
  priority: number;
}

/** Saves a scoring batch's classifications in one statement: one a mention was most of a scoring transaction's statements. */
export async function saveClassifications(sql: Queryable, scored: readonly { mentionId: string; classification: StoredClassification }[], at: Date): Promise<void> {
  if (scored.length === 0) return;
  const rows = scored.map(({ mentionId, classification }) => ({ id: mentionId, ...classification }));
  await sql`
    /* saveClassifications */
    update mentions m set relevance = c.relevance, sentiment = c.sentiment, intents = array(select jsonb_array_elements_text(c.intents)),
      automated = c.automated, language = c.language, classification_note = c.note,
      classification_failed = false, classified_at = ${at}, priority = c.priority
    from jsonb_to_recordset(${sql.json(rows as never)})
      as c(id text, relevance smallint, sentiment text, intents jsonb, automated boolean, language text, note text, priority real)
    where m.id = c.id`;
}

export function saveClassification(sql: Queryable, mentionId: string, classification: StoredClassification, at: Date): Promise<void> {
  return saveClassifications(sql, [{ mentionId, classification }], at);
}

/**
 * Of these mentions, locks those still unscored (in id order, so two
 * scorers never deadlock) and returns their ids: a mention whose scoring
 * job ran twice at once (a job released after a crash, a sweep) is
 * recorded and charged by the first only.
 */
export async function lockUnscoredMentions(sql: Queryable, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await sql<{ id: string }[]>`
    /* lockUnscoredMentions */
    select id from mentions where id = any(${sql.array(ids as string[])}) and relevance is null
    order by id
    for update`;
  return new Set(rows.map((row) => row.id));
}

/**
 * Mentions stored without a score, not failed, oldest first, leaving out
 * `except` (those a scoring job still holds): what a crash left unscored.
 */
export async function listUnscoredMentionIds(sql: Queryable, options: { except: readonly string[]; limit: number }): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    /* listUnscoredMentionIds */
    select id from mentions
    where relevance is null and not classification_failed
      and not (id = any(${sql.array(options.except as string[])}))
    order by created_at
    limit ${options.limit}`;
  return rows.map((row) => row.id);
}

/** A failed classification stays unscored (never billed, `unscored` in health) until a retry succeeds. */
export async function markClassificationFailed(sql: Queryable, mentionIds: readonly string[]): Promise<void> {
  if (mentionIds.length === 0) return;
  await sql`
    /* markClassificationFailed */
    update mentions set classification_failed = true where id = any(${sql.array(mentionIds as string[])}) and relevance is null`;
}

/** The verdicts users gave a keyword's mentions, newest first, for the classifier to learn from. */
export async function keywordVerdicts(sql: Queryable, keywordIds: readonly string[], limit = 500): Promise<{ keywordId: string; text: string; relevant: boolean }[]> {
  if (keywordIds.length === 0) return [];
  return sql<{ keywordId: string; text: string; relevant: boolean }[]>`
    /* keywordVerdicts */
    select keyword_id, text, relevant from (
      select m.keyword_id, p.text, m.verdict_relevant as relevant,
             row_number() over (partition by m.keyword_id order by m.created_at desc) as n
      from mentions m join posts p on p.id = m.post_id
      where m.keyword_id = any(${sql.array(keywordIds as string[])}) and m.verdict_relevant is not null
    ) v where n <= ${limit}`;
}

/** Triage and verdict changes of PATCH /v1/mentions/{id}; an absent field stays as it is. */
export interface MentionChanges {
  status?: 'open' | 'done' | 'ignored';
  assigneeId?: string | null;
  verdictRelevant?: boolean | null;
  /** The score a relevant verdict sets; any change of `verdictRelevant` without one clears it. */
  verdictRelevance?: 100;
  verdictSentiment?: 'positive' | 'negative' | 'neutral' | null;
  snoozedUntil?: Date | null;
  triageNote?: string | null;
}

/**
 * Holds the member a triage change assigns mentions to, before the mentions
 * are locked: removing a member holds the member and then unassigns their
 * mentions (the foreign key of migration 023), so a change that locked a
 * mention of theirs first and reached the member after waited for the
 * removal while the removal waited for it (a deadlock). Read as that key
 * reads `workspace_members`; a removed member is then simply not there.
 */
export async function holdAssignee(sql: Queryable, workspaceId: string, userId: string): Promise<void> {
  await sql`
    /* holdAssignee */
    select user_id from workspace_members where workspace_id = ${workspaceId} and user_id = ${userId} for key share`;
}

/** The mentions of the workspace among `ids`, locked for a change, with what the verdict rule reads. */
export async function lockMentionsForTriage(
  sql: Queryable,
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, { relevance: number | null; status: MentionRow['status'] }>> {
  const rows = await sql<{ id: string; relevance: number | null; status: MentionRow['status'] }[]>`
    /* lockMentionsForTriage */
    select id, relevance, status from mentions
    where id = any(${sql.array(ids as string[])}) and workspace_id = ${workspaceId}
    order by id
    for update`;
  return new Map(rows.map((row) => [row.id, { relevance: row.relevance, status: row.status }]));
}

/**
 * Applies the same changes to the workspace's mentions `ids` and announces
 * them to `mentionUpdated` subscribers at the commit. An assignee who is no
 * member of the workspace breaks the foreign key to team's members: that is
 * `invalid_assignee`, cause kept.
 */
export async function updateMentions(sql: Queryable, workspaceId: string, ids: readonly string[], changes: MentionChanges): Promise<void> {
  const values: Record<string, unknown> = {};
  if (changes.status !== undefined) values.status = changes.status;
  if (changes.assigneeId !== undefined) values.assignee_id = changes.assigneeId;
  if (changes.verdictRelevant !== undefined) {
    values.verdict_relevant = changes.verdictRelevant;
    values.verdict_relevance = changes.verdictRelevant === true ? (changes.verdictRelevance ?? null) : null;
  }
  if (changes.verdictSentiment !== undefined) values.verdict_sentiment = changes.verdictSentiment;
  if (changes.snoozedUntil !== undefined) values.snoozed_until = changes.snoozedUntil;
  if (changes.triageNote !== undefined) values.triage_note = changes.triageNote;
  if (Object.keys(values).length === 0 || ids.length === 0) return;
  try {
    await sql`
      /* updateMentions */
      with changed as (
        update mentions set ${sql(values)} where id = any(${sql.array(ids as string[])}) and workspace_id = ${workspaceId}
        returning id, workspace_id
      )
      select pg_notify(${mentionUpdatedChannel}, json_build_object('id', id, 'workspaceId', workspace_id)::text) from changed`;
  } catch (error) {
    if ((error as { constraint_name?: string }).constraint_name === 'mentions_assignee_is_member') {
      throw domainError('invalid_assignee', 'assigneeId: not a member of this workspace', { field: 'assigneeId' }, error);
    }
    throw error;
  }
}

/**
 * Marks every mention of the post `mentionId` belongs to done (one per
 * keyword it matched) and appends `noteLine` to that mention's own triage
 * note, in one statement; the ids changed, none when the mention is not the
 * workspace's.
 */
export async function markPostMentionsDone(sql: Queryable, workspaceId: string, mentionId: string, noteLine: string): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    /* markPostMentionsDone */
    update mentions m set
      status = 'done',
      triage_note = case
        when m.id <> ${mentionId} then m.triage_note
        when coalesce(m.triage_note, '') = '' then ${noteLine}
        else m.triage_note || E'\n' || ${noteLine}
      end
    from (select post_id from mentions where id = ${mentionId} and workspace_id = ${workspaceId}) clicked
    where m.post_id = clicked.post_id and m.workspace_id = ${workspaceId}
    returning m.id`;
  await announceMentionsUpdated(sql, rows.map((row) => ({ id: row.id, workspaceId })));
  return rows.map((row) => row.id);
}

/** Which of these mentions of the workspace an alert rule's filter lets through. */
export function filterMentionIdsByAlert(sql: Queryable, workspaceId: string, ids: readonly string[], filter: AlertFilter): Promise<string[]> {
  return filterMentionIds(sql, workspaceId, ids, sendableMentionFilter(filter));
}

/**
 * The mentions a digest covers: those passing the rule's filter that were
 * scored in `(from, to]` (scoring, not storage, decides when a mention can
 * first be sent), highest priority first.
 */
export async function findDigestMentions(
  sql: Queryable,
  workspaceId: string,
  filter: AlertFilter,
  period: { from: Date; to: Date },
): Promise<MentionRow[]> {
  return sql<MentionRow[]>`
    /* findDigestMentions */
    select ${mentionColumns(sql)}
    from mentions m join posts p on p.id = m.post_id join authors a on a.id = p.author_id
    where m.workspace_id = ${workspaceId} and m.classified_at > ${period.from} and m.classified_at <= ${period.to}
      and ${mentionFilterSql(sql, sendableMentionFilter(filter))}
    order by m.priority desc, m.created_at desc, m.id desc`;
}

/** A mention an alert delivered, alone or in a digest, shows `delivered: true` from then on (spec 2.4). */
export async function markMentionsDelivered(sql: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`/* markMentionsDelivered */ update mentions set delivered = true where id = any(${sql.array(ids as string[])}) and not delivered`;
}
