import type { Queryable } from '../../runtime/database.ts';

/**
 * A look-back a keyword is owed (spec 4.2, 2.3, part 8), as the `lookback`
 * job reads it: nothing named is a new keyword's, which reads everything the
 * keyword watches when it runs; otherwise only what writes added.
 */
export interface OwedLookback {
  keywordId: string;
  /** The search platforms added: only these look back 30 days. */
  platforms?: string[];
  /** The feeds connected: only these bring their newest items. */
  feedUrls?: string[];
  /** The storefronts connected (`platform:id:country`, see reviewStorefrontKeys): only these look back 30 days. */
  storefronts?: string[];
}

interface OwedLookbackRow {
  keywordId: string;
  whole: boolean;
  platforms: string[];
  feedUrls: string[];
  storefronts: string[];
}

/** A new keyword's look-back names nothing: it reads everything the keyword watches. */
export const isWholeLookback = (lookback: Omit<OwedLookback, 'keywordId'>) => !lookback.platforms && !lookback.feedUrls && !lookback.storefronts;

/** The look-back of what writes added, the lists left empty left out; none when they added nothing. */
export function lookbackOfAdded(keywordId: string, added: { platforms: string[]; feedUrls: string[]; storefronts: string[] }): OwedLookback | undefined {
  if (!added.platforms.length && !added.feedUrls.length && !added.storefronts.length) return undefined;
  return {
    keywordId,
    ...(added.platforms.length ? { platforms: added.platforms } : {}),
    ...(added.feedUrls.length ? { feedUrls: added.feedUrls } : {}),
    ...(added.storefronts.length ? { storefronts: added.storefronts } : {}),
  };
}

// A row that is not whole was written with something added.
const lookbackOf = (row: OwedLookbackRow): OwedLookback => (row.whole ? { keywordId: row.keywordId } : lookbackOfAdded(row.keywordId, row)!);

/**
 * Records a look-back the keyword is owed, merged into the one it is already
 * owed: a new keyword's takes in everything, otherwise what each write added
 * adds up. Writing it again changes nothing.
 */
export async function oweLookback(sql: Queryable, lookback: OwedLookback): Promise<void> {
  await sql`
    /* oweLookback */
    insert into keyword_lookbacks (keyword_id, whole, platforms, feed_urls, storefronts)
    values (${lookback.keywordId}, ${isWholeLookback(lookback)}, ${sql.array(lookback.platforms ?? [])}::text[],
      ${sql.array(lookback.feedUrls ?? [])}::text[], ${sql.array(lookback.storefronts ?? [])}::text[])
    on conflict (keyword_id) do update set
      whole = keyword_lookbacks.whole or excluded.whole,
      platforms = array(select distinct value from unnest(keyword_lookbacks.platforms || excluded.platforms) as value order by 1),
      feed_urls = array(select distinct value from unnest(keyword_lookbacks.feed_urls || excluded.feed_urls) as value order by 1),
      storefronts = array(select distinct value from unnest(keyword_lookbacks.storefronts || excluded.storefronts) as value order by 1)`;
}

/** Takes (deletes and returns) the look-back the keyword is owed, if any. */
export async function takeOwedLookback(sql: Queryable, keywordId: string): Promise<OwedLookback | undefined> {
  const [row] = await sql<OwedLookbackRow[]>`
    /* takeOwedLookback */
    delete from keyword_lookbacks where keyword_id = ${keywordId}
    returning keyword_id, whole, platforms, feed_urls, storefronts`;
  return row && lookbackOf(row);
}

/**
 * Takes up to `limit` look-backs owed to keywords that run now, oldest
 * first: keywords that billing started (a top-up, a new cap period, a first
 * top-up's own caps), or that ran again while their look-back was being
 * recorded. Rows another worker is taking are skipped.
 */
export async function takeOwedLookbacksOfRunningKeywords(sql: Queryable, limit: number): Promise<OwedLookback[]> {
  const rows = await sql<OwedLookbackRow[]>`
    /* takeOwedLookbacksOfRunningKeywords */
    with running as (
      select l.keyword_id
      from keyword_lookbacks l join keywords k on k.id = l.keyword_id
      where not k.muted and not k.paused_for_cap
      order by l.owed_since
      limit ${limit}
      for update of l skip locked
    )
    delete from keyword_lookbacks l using running where l.keyword_id = running.keyword_id
    returning l.keyword_id, l.whole, l.platforms, l.feed_urls, l.storefronts`;
  return rows.map(lookbackOf);
}
