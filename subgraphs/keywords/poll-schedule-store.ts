import type { Queryable } from '../../runtime/database.ts';

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

/**
 * Takes the polls due now for active keywords and leases them for
 * `leaseSeconds` (a crashed poll is simply due again then). Searches are
 * grouped so one query serves every keyword, of every workspace, that asks
 * it; review and feed polls stay per keyword.
 */
export async function claimDuePolls(
  sql: Queryable,
  now: Date,
  leaseSeconds: number,
  limit: number,
): Promise<{ searches: DueSearch[]; sources: DueSourcePoll[] }> {
  const claimed = await sql<{ keywordId: string; platform: string; term: string; exactPhrase: boolean; lastPolledAt: Date | null }[]>`
    /* claimDuePolls */
    with due as (
      select p.keyword_id, p.platform
      from keyword_polls p join keywords k on k.id = p.keyword_id
      where p.next_poll_at <= ${now} and not k.muted and not k.paused_for_cap
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
    const key = `${poll.platform}\u0000${poll.term.toLowerCase()}\u0000${poll.exactPhrase}`;
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
 * Records a poll: a keyword that found something polls again after the base
 * interval; each empty poll in a row doubles it, up to 32 times (spec 2.1
 * `polling.emptyPolls`).
 */
export async function recordPollOutcome(
  sql: Queryable,
  outcome: { platform: string; keywordIdsWithFinds: readonly string[]; keywordIds: readonly string[]; now: Date; baseIntervalSeconds: number },
): Promise<void> {
  await sql`
    /* recordPollOutcome */
    update keyword_polls set
      last_polled_at = ${outcome.now},
      empty_polls = case when keyword_id = any(${sql.array(outcome.keywordIdsWithFinds as string[])}) then 0 else empty_polls + 1 end,
      next_poll_at = ${outcome.now}::timestamptz + make_interval(secs => ${outcome.baseIntervalSeconds} *
        power(2, least(case when keyword_id = any(${sql.array(outcome.keywordIdsWithFinds as string[])}) then 0 else empty_polls + 1 end, 5)))
    where platform = ${outcome.platform} and keyword_id = any(${sql.array(outcome.keywordIds as string[])})`;
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
