import type { Queryable } from '../../runtime/database.ts';

/**
 * Attempts count over the last 15 minutes, a sliding window: a fixed window
 * let a ceiling's worth of tries just before it turned and as many just
 * after, twice the ceiling within a minute.
 */
export const attemptWindowMinutes = 15;
/**
 * Attempts are counted in one-minute buckets, and a bucket counts until the
 * whole window has passed its last instant, so no attempt of the last 15
 * minutes is ever left out (one up to a minute older may still count).
 */
const bucket = '1 minute';

/** A count and its ceiling: `subject` names what is counted (`sign-in:account:<email>`, `sign-in:address:<ip>`, …). */
export interface AttemptLimit {
  subject: string;
  limit: number;
}

/**
 * Seconds until every one of `limits` allows another attempt, or null while
 * none has reached its ceiling in the window. A subject at its ceiling opens
 * again once the bucket holding its ceiling-th newest attempt leaves the
 * window. Counted in PostgreSQL so every process sees the same counts.
 */
export async function attemptsBlockedFor(sql: Queryable, limits: readonly AttemptLimit[]): Promise<number | null> {
  if (limits.length === 0) return null;
  const [row] = await sql<{ retryAfterSeconds: number | null }[]>`
    /* attemptsBlockedFor */
    select ceil(extract(epoch from max(counted.window_start) + ${bucket}::interval + make_interval(mins => ${attemptWindowMinutes}) - now()))::int as retry_after_seconds
    from (
      select a.window_start, l."limit",
             sum(a.attempts) over (partition by a.subject order by a.window_start desc) as newer_attempts
      from sign_in_attempts a
      join jsonb_to_recordset(${sql.json(limits as never)}) as l(subject text, "limit" int) on l.subject = a.subject
      where a.window_start > now() - ${bucket}::interval - make_interval(mins => ${attemptWindowMinutes})
    ) counted
    where counted.newer_attempts >= counted."limit"`;
  return row?.retryAfterSeconds === null || row?.retryAfterSeconds === undefined ? null : Math.max(1, row.retryAfterSeconds);
}

/**
 * Counts one attempt against each subject, in the bucket of this minute, and
 * drops the subjects' buckets that have left the window; answers the bucket,
 * for `uncountAttempt`.
 */
export async function countAttempt(sql: Queryable, limits: readonly AttemptLimit[]): Promise<Date | null> {
  if (limits.length === 0) return null;
  const subjects = limits.map((limit) => limit.subject);
  const [row] = await sql<{ windowStart: Date }[]>`
    /* countAttempt */
    with expired as (
      delete from sign_in_attempts
      where subject = any(${sql.array(subjects)}::text[])
        and window_start <= now() - ${bucket}::interval - make_interval(mins => ${attemptWindowMinutes})
    )
    insert into sign_in_attempts (subject, window_start, attempts)
    select subject, date_bin(${bucket}::interval, now(), timestamptz 'epoch'), 1
    from unnest(${sql.array(subjects)}::text[]) as l(subject)
    on conflict (subject, window_start) do update set attempts = sign_in_attempts.attempts + 1
    returning window_start`;
  return row.windowStart;
}

/** Takes back an attempt `countAttempt` counted in the bucket it answered; a bucket left empty goes. */
export async function uncountAttempt(sql: Queryable, limits: readonly AttemptLimit[], windowStart: Date | null): Promise<void> {
  if (limits.length === 0 || windowStart === null) return;
  await sql`
    /* uncountAttempt */
    merge into sign_in_attempts a
    using (select unnest(${sql.array(limits.map((limit) => limit.subject))}::text[]) as subject) l
    on a.subject = l.subject and a.window_start = ${windowStart}
    when matched and a.attempts <= 1 then delete
    when matched then update set attempts = a.attempts - 1`;
}
