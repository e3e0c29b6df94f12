import type { Queryable, Sql } from '../../runtime/database.ts';
import { lockKeysUntilCommit } from '../../runtime/transaction-locks.ts';

/** A search to run once for every keyword that asks it (same platform, term and phrase rule). */
export interface DueSearch {
  platform: string;
  term: string;
  exactPhrase: boolean;
  keywordIds: string[];
  /** Oldest `lastPolledAt` among them (null: never polled). */
  lastPolledAt: Date | null;
}

/** A keyword's own sources due for a poll (reviews per platform, or its feeds). */
export interface DueSourcePoll {
  keywordId: string;
  platform: string;
  lastPolledAt: Date | null;
}

const sourcePlatforms = ['appstore', 'googleplay', 'trustpilot', 'googlemaps', 'rss'];
/** Empty or failed polls in a row double the wait up to this many times (32 base intervals). */
const backoffDoublings = 5;
/**
 * The longest wait empty polls back off to when the base interval is under
 * it. Intervals that short are set by tests and demos, which expect a post
 * within about a minute of its publication: 32 intervals of 2 s would be
 * over a minute.
 */
const shortIntervalCeilingSeconds = 30;

/** The longest wait between empty polls: 32 base intervals, but 30 s at most for a base interval under 30 s. */
export function emptyPollCeilingSeconds(baseIntervalSeconds: number): number {
  const doubled = baseIntervalSeconds * 2 ** backoffDoublings;
  return baseIntervalSeconds < shortIntervalCeilingSeconds ? Math.min(doubled, shortIntervalCeilingSeconds) : doubled;
}

/** One upstream search serves every keyword of a platform with the same term, in any case, and the same phrase setting. */
export const searchKey = (platform: string, term: string, exactPhrase: boolean) => `${platform}\u0000${term.toLowerCase()}\u0000${exactPhrase}`;

/**
 * Takes the polls due now for active keywords and leases them for
 * `leaseSeconds` (a crashed poll is simply due again then). A keyword still
 * owed a look-back has none taken: its look-back is the poll it has next
 * (startLookbacksOfRunningKeywords), and its regular polls follow an
 * interval after it. Searches are
 * grouped so one query serves every keyword, of every workspace, that asks
 * it; review and feed polls stay per keyword. Polls of `skippedPlatforms`
 * (not configured here) are left due, so a process that has the platform
 * configured polls them at once.
 */
export async function claimDuePolls(
  sql: Queryable,
  now: Date,
  leaseSeconds: number,
  limit: number,
  skippedPlatforms: readonly string[] = [],
): Promise<{ searches: DueSearch[]; sources: DueSourcePoll[] }> {
  const claimed = await sql<{ keywordId: string; platform: string; term: string; exactPhrase: boolean; lastPolledAt: Date | null }[]>`
    /* claimDuePolls */
    with due as (
      select p.keyword_id, p.platform
      from keyword_polls p join keywords k on k.id = p.keyword_id
      where p.next_poll_at <= ${now} and not k.muted and not k.paused_for_cap
        and p.platform <> all(${sql.array(skippedPlatforms as string[])})
        and not exists (select 1 from keyword_lookbacks l where l.keyword_id = p.keyword_id)
      order by p.next_poll_at
      limit ${limit}
      for update of p skip locked
    )
    update keyword_polls p set next_poll_at = ${new Date(now.getTime() + leaseSeconds * 1000)}
    from due, keywords k
    where p.keyword_id = due.keyword_id and p.platform = due.platform and k.id = p.keyword_id
    returning p.keyword_id, p.platform, k.term, k.exact_phrase, p.last_polled_at`;
  const searches = new Map<string, DueSearch>();
  const sources: DueSourcePoll[] = [];
  for (const poll of claimed) {
    if (sourcePlatforms.includes(poll.platform)) {
      sources.push({ keywordId: poll.keywordId, platform: poll.platform, lastPolledAt: poll.lastPolledAt });
      continue;
    }
    const key = searchKey(poll.platform, poll.term, poll.exactPhrase);
    const search = searches.get(key);
    if (!search) {
      searches.set(key, { platform: poll.platform, term: poll.term, exactPhrase: poll.exactPhrase, keywordIds: [poll.keywordId], lastPolledAt: poll.lastPolledAt });
    } else {
      search.keywordIds.push(poll.keywordId);
      if (!poll.lastPolledAt || (search.lastPolledAt && poll.lastPolledAt < search.lastPolledAt)) search.lastPolledAt = poll.lastPolledAt;
    }
  }
  return { searches: [...searches.values()], sources };
}

/**
 * Records a poll that ran: a keyword that found something polls again after
 * the base interval; each empty poll in a row doubles it, up to
 * `emptyPollCeilingSeconds` (spec 2.1 `polling.emptyPolls`). It clears the
 * last error and the run of failures.
 */
export async function recordPollOutcome(
  sql: Queryable,
  outcome: { platform: string; keywordIdsWithFinds: readonly string[]; keywordIds: readonly string[]; now: Date; baseIntervalSeconds: number },
): Promise<void> {
  await sql`
    /* recordPollOutcome */
    update keyword_polls set
      last_polled_at = ${outcome.now},
      last_error = null,
      last_error_at = null,
      failed_polls = 0,
      empty_polls = case when keyword_id = any(${sql.array(outcome.keywordIdsWithFinds as string[])}) then 0 else empty_polls + 1 end,
      next_poll_at = ${outcome.now}::timestamptz + make_interval(secs => least(${outcome.baseIntervalSeconds} *
        power(2, least(case when keyword_id = any(${sql.array(outcome.keywordIdsWithFinds as string[])}) then 0 else empty_polls + 1 end, ${backoffDoublings})),
        ${emptyPollCeilingSeconds(outcome.baseIntervalSeconds)}))
    where platform = ${outcome.platform} and keyword_id = any(${sql.array(outcome.keywordIds as string[])})`;
}

/** A failed poll to record: its keywords, the error, and the wait the platform asked for. */
interface PollFailureRecord {
  platform: string;
  keywordIds: readonly string[];
  error: string;
  now: Date;
  baseIntervalSeconds: number;
  retryAfterSeconds?: number;
}

/** Where a failed poll leaves the schedule. */
export interface PollFailure {
  /** The back-off step these polls reached: failed polls in a row, at most the last doubling. */
  backoffStep: number;
  /**
   * The highest step any poll of the platform had reached with this same error
   * before: a step already reached was already reported. Keyed by the error too,
   * so a term the platform always refuses does not hide an outage that follows.
   */
  platformBackoffStepBefore: number;
  /** When the first of these polls is due again; null when none of them has a schedule (yet). */
  nextPollAt: Date | null;
}

/**
 * Records a poll that failed: the error and its time, one more failure in a
 * row, and a wait that doubles with each, like empty polls, but at least what
 * the platform asked for (`retryAfterSeconds`). `last_polled_at` stays: it is
 * where the next poll's search starts, so a failure must not move it past
 * posts no poll has read.
 *
 * The polls of a platform fail at once when it is down, so they take a lock
 * per platform: each reads the step reached before it after the last one has
 * written its own, and a step is reported by one poll, not by all that ran
 * together.
 */
export async function recordPollFailure(
  sql: Sql,
  failure: PollFailureRecord,
): Promise<PollFailure> {
  return sql.begin(async (tx) => {
    await lockKeysUntilCommit(tx, 'poll_failures', [failure.platform]);
    return recordPollFailureLocked(tx, failure);
  }) as Promise<PollFailure>;
}

async function recordPollFailureLocked(
  sql: Queryable,
  failure: PollFailureRecord,
): Promise<PollFailure> {
  const [row] = await sql<{ backoffStep: number | null; platformBackoffStepBefore: number; nextPollAt: Date | null }[]>`
    /* recordPollFailure */
    with platform_before as (
      select coalesce(max(least(failed_polls, ${backoffDoublings})), 0)::int as step
      from keyword_polls where platform = ${failure.platform} and last_error = ${failure.error}
    ), failed as (
      update keyword_polls set
        last_error = ${failure.error},
        last_error_at = ${failure.now},
        failed_polls = failed_polls + 1,
        next_poll_at = ${failure.now}::timestamptz + greatest(
          make_interval(secs => ${failure.baseIntervalSeconds} * power(2, least(failed_polls + 1, ${backoffDoublings}))),
          make_interval(secs => ${failure.retryAfterSeconds ?? 0}))
      where platform = ${failure.platform} and keyword_id = any(${sql.array(failure.keywordIds as string[])})
      returning least(failed_polls, ${backoffDoublings}) as step, next_poll_at
    )
    select (select max(step) from failed)::int as backoff_step, (select step from platform_before) as platform_backoff_step_before,
      (select min(next_poll_at) from failed) as next_poll_at`;
  return { backoffStep: row.backoffStep ?? 0, platformBackoffStepBefore: row.platformBackoffStepBefore, nextPollAt: row.nextPollAt };
}

/**
 * Records a look-back that read its platform: a poll like any other for
 * `lastPolledAt` (spec 2.1 `polling`), so a new keyword does not show its
 * platforms as never polled until the first regular poll, an interval on.
 * The schedule and the run of empty polls are the regular polls' own; an
 * error the look-back itself left (a failed first try) is cleared.
 */
export async function recordLookbackPoll(sql: Queryable, lookback: { platform: string; keywordIds: readonly string[]; now: Date }): Promise<void> {
  await sql`
    /* recordLookbackPoll */
    update keyword_polls set
      last_polled_at = greatest(last_polled_at, ${lookback.now}),
      last_error = case when failed_polls = 0 then null else last_error end,
      last_error_at = case when failed_polls = 0 then null else last_error_at end
    where platform = ${lookback.platform} and keyword_id = any(${sql.array(lookback.keywordIds as string[])})`;
}

/**
 * Records an error on polls without touching their schedule: a look-back
 * that failed (the regular polls keep their own pace), or a poll of a platform
 * this process cannot run.
 */
export async function recordPollError(
  sql: Queryable,
  failure: { platform: string; keywordIds: readonly string[]; error: string; now: Date },
): Promise<void> {
  await sql`
    /* recordPollError */
    update keyword_polls set last_error = ${failure.error}, last_error_at = ${failure.now}
    where platform = ${failure.platform} and keyword_id = any(${sql.array(failure.keywordIds as string[])})`;
}

/**
 * Says on every poll of a platform that is not configured why it is not
 * polled. Rows that already say so are left alone, so `last_error_at` is when
 * a poll was first found unpolled for this reason.
 */
export async function recordUnpolledPlatforms(sql: Queryable, platforms: readonly { platform: string; reason: string }[], now: Date): Promise<void> {
  if (!platforms.length) return;
  await sql`
    /* recordUnpolledPlatforms */
    update keyword_polls p set last_error = unpolled.reason, last_error_at = ${now}
    from unnest(${sql.array(platforms.map((entry) => entry.platform))}::text[], ${sql.array(platforms.map((entry) => entry.reason))}::text[])
      as unpolled (platform, reason)
    where p.platform = unpolled.platform and p.last_error is distinct from unpolled.reason`;
}

/**
 * Makes a keyword's poll rows match what it watches: its search platforms
 * (all twelve when `platforms` is null) except Bluesky, which arrives live
 * (spec 2.1 `polling`), the platforms of its review sources, and `rss` when
 * it has feeds. New rows are first due at `firstPollAt`.
 */
export async function syncKeywordPolls(sql: Queryable, keywordId: string, searchPlatforms: readonly string[], firstPollAt: Date): Promise<void> {
  await sql`
    /* syncKeywordPolls */
    with keyword as (
      select id, coalesce(platforms, ${sql.array(searchPlatforms as string[])}::text[]) as platforms from keywords where id = ${keywordId}
    ), wanted as (
      select unnest(platforms) as platform from keyword where true
      except select 'bluesky'
      union select distinct platform from keyword_review_sources where keyword_id = ${keywordId}
      union select 'rss' from keyword_feeds where keyword_id = ${keywordId}
    ), dropped as (
      delete from keyword_polls where keyword_id = ${keywordId} and platform not in (select platform from wanted)
    )
    insert into keyword_polls (keyword_id, platform, next_poll_at)
    select ${keywordId}, platform, ${firstPollAt} from wanted
    on conflict do nothing`;
}

/**
 * Moves the regular polls of what a look-back reads (every platform of the
 * keyword for `platforms` null) to `firstPollAt` at the earliest: a regular
 * poll due at once would search the same platform again beside it.
 */
export async function deferPollsBehindLookback(sql: Queryable, keywordId: string, platforms: readonly string[] | null, firstPollAt: Date): Promise<void> {
  await sql`
    /* deferPollsBehindLookback */
    update keyword_polls set next_poll_at = greatest(next_poll_at, ${firstPollAt})
    where keyword_id = ${keywordId} and (${platforms === null} or platform = any(${sql.array((platforms ?? []) as string[])}::text[]))`;
}
