import type { NormalizedPost } from '../../vocabulary/normalized-post.ts';
import type { Queryable } from '../../runtime/database.ts';
import { newId } from '../../runtime/ids.ts';

export interface CommentRow {
  id: string;
  mentionId: string;
  url: string;
  text: string;
  publishedAt: Date;
  authorName: string;
  authorHandle: string;
  authorUrl: string;
  createdAt: Date;
}

export interface DueCommentWatch {
  mentionId: string;
  lastCheckedAt: Date | null;
  until: Date;
}

/** A relevant mention's thread to follow, from its first read until its window closes. */
export interface ThreadWatch {
  mentionId: string;
  firstCheckAt: Date;
  until: Date;
}

/** Starts following relevant mentions' threads (spec 2.1.2), in one statement; following one twice changes nothing. */
export async function watchThreads(sql: Queryable, watches: readonly ThreadWatch[]): Promise<void> {
  if (watches.length === 0) return;
  await sql`
    /* watchThreads */
    insert into comment_watches (mention_id, next_check_at, until)
    select * from unnest(${sql.array(watches.map((watch) => watch.mentionId))}::text[],
                         ${sql.array(watches.map((watch) => watch.firstCheckAt.toISOString()))}::timestamptz[],
                         ${sql.array(watches.map((watch) => watch.until.toISOString()))}::timestamptz[])
    on conflict do nothing`;
}

/** Threads due for a read, leased for `leaseSeconds` so a lost job only delays the read. */
export async function claimDueCommentWatches(sql: Queryable, now: Date, leaseSeconds: number, limit: number): Promise<DueCommentWatch[]> {
  return sql<DueCommentWatch[]>`
    /* claimDueCommentWatches */
    with due as (
      select mention_id from comment_watches where next_check_at <= ${now}
      order by next_check_at limit ${limit} for update skip locked
    )
    update comment_watches w set next_check_at = ${new Date(now.getTime() + leaseSeconds * 1000)}
    from due where w.mention_id = due.mention_id
    returning w.mention_id, w.last_checked_at, w.until`;
}

/** After a read: the next one, or none when the thread's window has closed. */
export async function recordThreadRead(sql: Queryable, mentionId: string, at: Date, next: Date | null): Promise<void> {
  if (next === null) {
    await sql`/* stopWatchingThread */ delete from comment_watches where mention_id = ${mentionId}`;
    return;
  }
  await sql`
    /* recordThreadRead */
    update comment_watches set last_checked_at = ${at}, next_check_at = ${next} where mention_id = ${mentionId}`;
}

/** Comments already kept under a mention: the per-thread ceiling counts them. */
export async function threadCommentExternalIds(sql: Queryable, mentionId: string): Promise<Set<string>> {
  const rows = await sql<{ externalId: string }[]>`
    /* threadCommentExternalIds */
    select external_id from comments where mention_id = ${mentionId}`;
  return new Set(rows.map((row) => row.externalId));
}

/** Stores a comment once; returns its id when it is new, null when it was there. */
export async function storeComment(sql: Queryable, mentionId: string, comment: NormalizedPost, delivered: boolean): Promise<string | null> {
  const [row] = await sql<{ id: string }[]>`
    /* storeComment */
    insert into comments (id, mention_id, external_id, url, text, published_at, author_name, author_handle, author_url, delivered)
    values (${newId('cmt')}, ${mentionId}, ${comment.externalId}, ${comment.url}, ${comment.text}, ${comment.publishedAt},
            ${comment.author.name}, ${comment.author.handle}, ${comment.author.url}, ${delivered})
    on conflict (mention_id, external_id) do nothing
    returning id`;
  return row?.id ?? null;
}

export async function removeComment(sql: Queryable, id: string): Promise<void> {
  await sql`/* removeComment */ delete from comments where id = ${id}`;
}

export async function listThreadComments(sql: Queryable, mentionId: string): Promise<CommentRow[]> {
  return sql<CommentRow[]>`
    /* listThreadComments */
    select id, mention_id, url, text, published_at, author_name, author_handle, author_url, created_at
    from comments where mention_id = ${mentionId} order by published_at desc, id desc`;
}
