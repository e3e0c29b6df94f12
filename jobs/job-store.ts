import type { Queryable, Sql } from '../runtime/database.ts';

/**
 * The SQL of the job machinery: its own tables (job_workers, job_claims, in
 * schema/011_crash_recovery.sql) and the few statements Earshot runs on
 * pg-boss's job table, which pg-boss's API has no call for.
 */

/** pg-boss's schema. */
export const jobSchema = 'pgboss';

/**
 * The first key of every worker's session advisory lock, the second being
 * the worker's id. Any constant works; it only has to be the same in every
 * Earshot process (the two-key form never meets the migration's one-key lock).
 */
const workerLockSpace = 730_194;
/** The first key of the sweep locks, the second the queue's name hashed. */
const sweepLockSpace = 730_195;

/** Registers a worker and takes its lock in one transaction, so no one sees the row without the lock. */
export async function registerWorker(lockConnection: Sql, host: string, pid: number): Promise<number> {
  return (await lockConnection.begin(async (tx) => {
    const [row] = await tx<{ id: number }[]>`
      /* registerWorker */
      insert into job_workers (host, pid) values (${host}, ${pid}) returning id`;
    await tx`/* lockWorker */ select pg_advisory_lock(${workerLockSpace}, ${row.id})`;
    return row.id;
  })) as number;
}

/**
 * Makes sure this session holds the worker's lock and the worker's row
 * exists, taking them again after the connection was lost (the lock went
 * with it, and another worker may have judged this one dead). Returns
 * whether the lock had to be taken again.
 */
export async function reassertWorker(lockConnection: Queryable, id: number, host: string, pid: number): Promise<boolean> {
  const [held] = await lockConnection<{ held: boolean }[]>`
    /* holdsWorkerLock */
    select exists (
      select 1 from pg_locks
      where locktype = 'advisory' and pid = pg_backend_pid() and granted
        and classid = ${workerLockSpace}::int::oid and objid = ${id}::int::oid and objsubid = 2
    ) as held`;
  if (held.held) return false;
  await lockConnection`/* relockWorker */ select pg_advisory_lock(${workerLockSpace}, ${id})`;
  await lockConnection`
    /* restoreWorker */
    insert into job_workers (id, host, pid) values (${id}, ${host}, ${pid}) on conflict (id) do nothing`;
  return true;
}

/** Records that the worker took these jobs (a job retried elsewhere moves to its new worker). */
export async function claimJobs(sql: Queryable, workerId: number, queue: string, jobIds: readonly string[]): Promise<void> {
  if (jobIds.length === 0) return;
  await sql`
    /* claimJobs */
    insert into job_claims (job_id, queue, worker_id)
    select id, ${queue}, ${workerId} from unnest(${sql.array(jobIds as string[])}::uuid[]) as t(id)
    on conflict (job_id) do update set worker_id = excluded.worker_id, queue = excluded.queue, claimed_at = now()`;
}

/**
 * Forgets the worker's claims on jobs that are no longer active. Done here
 * rather than when a handler returns, because pg-boss completes the job only
 * after that: a claim dropped first would leave a moment where a live job
 * looks abandoned.
 */
export async function dropSettledClaims(sql: Queryable, workerId: number): Promise<void> {
  await sql`
    /* dropSettledClaims */
    delete from job_claims c
    where c.worker_id = ${workerId}
      and not exists (select 1 from ${sql(jobSchema)}.job j where j.name = c.queue and j.id = c.job_id and j.state = 'active')`;
}

/** A worker that stops cleanly leaves nothing behind. */
export async function removeWorker(sql: Queryable, workerId: number): Promise<void> {
  await sql`
    /* removeWorker */
    with claims as (delete from job_claims where worker_id = ${workerId})
    delete from job_workers where id = ${workerId}`;
}

export interface ReleasedJob {
  id: string;
  name: string;
}

/**
 * A released job goes back to the queue to run at once and unstarted
 * (`started_on` null): pg-boss counts a retry each time it starts a job
 * again, and a stop or a death is no failure of the job's.
 */
const backToQueue = (sql: Queryable, why: string) => sql`
  state = 'retry', start_after = now(), started_on = null,
  output = jsonb_build_object('message', ${`released: ${why}`}::text)`;

/**
 * Workers whose lock no session holds died with their connection (kill -9,
 * a lost machine): they are removed, and every job they held still active
 * goes back to the queue to run now, in one statement. Two workers doing
 * this at once release each job once.
 */
export async function releaseJobsOfDeadWorkers(sql: Queryable, self: number): Promise<ReleasedJob[]> {
  return sql<ReleasedJob[]>`
    /* releaseJobsOfDeadWorkers */
    with dead as (
      delete from job_workers w
      where w.id <> ${self}
        and not exists (
          select 1 from pg_locks l
          where l.locktype = 'advisory' and l.granted
            and l.database = (select oid from pg_database where datname = current_database())
            and l.classid = ${workerLockSpace}::int::oid and l.objid = w.id::oid and l.objsubid = 2
        )
      returning w.id
    ), claims as (
      delete from job_claims c using dead where c.worker_id = dead.id
      returning c.job_id, c.queue
    )
    update ${sql(jobSchema)}.job j
    set ${backToQueue(sql, 'the worker process that ran it is gone')}
    from claims
    where j.name = claims.queue and j.id = claims.job_id and j.state = 'active'
    returning j.id, j.name`;
}

/**
 * Jobs this worker was running when its own stop closed their connections
 * under them: back to the queue.
 */
export async function releaseInterruptedJobs(sql: Queryable, queue: string, jobIds: readonly string[]): Promise<ReleasedJob[]> {
  return sql<ReleasedJob[]>`
    /* releaseInterruptedJobs */
    update ${sql(jobSchema)}.job j
    set ${backToQueue(sql, 'its worker stopped while it ran')}
    where j.name = ${queue} and j.id = any(${sql.array(jobIds as string[])}::uuid[]) and j.state = 'active'
    returning j.id, j.name`;
}

/**
 * Active jobs no worker claims, started more than `graceSeconds` ago: taken
 * by a process that died between pg-boss's fetch and its claim (a
 * handler claims its jobs first thing, in milliseconds). Back to the queue.
 */
export async function releaseUnclaimedJobs(sql: Queryable, queues: readonly string[], graceSeconds: number): Promise<ReleasedJob[]> {
  return sql<ReleasedJob[]>`
    /* releaseUnclaimedJobs */
    update ${sql(jobSchema)}.job j
    set ${backToQueue(sql, 'active with no live worker holding it')}
    where j.name = any(${sql.array(queues as string[])}) and j.state = 'active'
      and j.started_on < now() - make_interval(secs => ${graceSeconds})
      and not exists (select 1 from job_claims c where c.job_id = j.id)
    returning j.id, j.name`;
}

/**
 * Takes the transaction-long lock of a queue's sweep, or answers false when
 * another process's sweep holds it: sweeps of one queue run one at a time.
 */
export async function tryLockSweep(tx: Queryable, queue: string): Promise<boolean> {
  const [row] = await tx<{ locked: boolean }[]>`
    /* tryLockSweep */
    select pg_try_advisory_xact_lock(${sweepLockSpace}, hashtext(${queue})) as locked`;
  return row.locked;
}

/**
 * The ids listed under `field` in the payloads of the queue's jobs not yet
 * finished (queued, waiting for a retry, or running): what that queue will
 * still do.
 */
export async function payloadIdsOfPendingJobs(sql: Queryable, queue: string, field: string): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    /* payloadIdsOfPendingJobs */
    select distinct jsonb_array_elements_text(j.data -> ${field}) as id
    from ${sql(jobSchema)}.job j
    where j.name = ${queue} and j.state < 'completed'`;
  return rows.map((row) => row.id);
}
