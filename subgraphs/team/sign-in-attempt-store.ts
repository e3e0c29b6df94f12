import type { Queryable } from '../../runtime/database.ts';

/** The window attempts are counted in: fixed 15-minute windows from the epoch. */
export const attemptWindowMinutes = 15;

/** A count and its ceiling: `subject` names what is counted (`sign-in:account:<email>`, `sign-in:address:<ip>`, …). */
export interface AttemptLimit {
  subject: string;
  limit: number;
}

/**
 * Seconds until every one of `limits` allows another attempt, or null while
 * none has reached its ceiling in the current window. Counted in PostgreSQL
 * so every process sees the same counts.
 */
export async function attemptsBlockedFor(sql: Queryable, limits: readonly AttemptLimit[]): Promise<number | null> {
  if (limits.length === 0) return null;
  const [row] = await sql<{ retryAfterSeconds: number | null }[]>`
    /* attemptsBlockedFor */
    select ceil(extract(epoch from max(a.window_start) + make_interval(mins => ${attemptWindowMinutes}) - now()))::int as retry_after_seconds
    from sign_in_attempts a
    join jsonb_to_recordset(${sql.json(limits as never)}) as l(subject text, "limit" int) on l.subject = a.subject
    where a.attempts >= l."limit"
      and a.window_start = date_bin(make_interval(mins => ${attemptWindowMinutes}), now(), timestamptz 'epoch')`;
  return row?.retryAfterSeconds === null || row?.retryAfterSeconds === undefined ? null : Math.max(1, row.retryAfterSeconds);
}

/** Counts one attempt against each subject in the current window. */
export async function countAttempt(sql: Queryable, limits: readonly AttemptLimit[]): Promise<void> {
  if (limits.length === 0) return;
  await sql`
    /* countAttempt */
    insert into sign_in_attempts (subject, window_start, attempts)
    select subject, date_bin(make_interval(mins => ${attemptWindowMinutes}), now(), timestamptz 'epoch'), 1
    from unnest(${sql.array(limits.map((limit) => limit.subject))}::text[]) as l(subject)
    on conflict (subject, window_start) do update set attempts = sign_in_attempts.attempts + 1`;
}
