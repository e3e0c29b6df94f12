-- mentions subgraph: a keyword's scored matches counted per day, kept exact
-- by triggers on mentions (issue 18, aim 2; PERFORMANCE.md, "Gateways",
-- "29 November, counters"). A keyword page's stats, noise and health
-- counted every scored match of each keyword on every request: about 2.4
-- ms of PostgreSQL a request on the benchmark's 5,000 mentions, 790 ms for
-- a keyword of 1,000,000. They now sum a keyword's rows here and read the
-- matches of one partial day at each time edge, whatever the keyword's
-- size (`keywordMatchCountsSql`).
--
-- A row holds the scored matches (a score, or a user's verdict) of one
-- keyword made on one UTC day (`match_day`, of `created_at`) of posts
-- published on one UTC day (`published_day`): the windows of noise and
-- health start at a match time, `last7d` at a publication time, and the
-- matches of a window's first, partial day are read from the index
-- `mentions_by_keyword_counted` by match time, which a publication day's
-- rows name. `relevant` and `filtered` are the relevance rule of
-- `relevantSql` (the line of 40 is a constant, as in the index of 053).
--
-- Statement triggers on mentions keep the rows: every insert, update and
-- delete, whichever path made it (scoring, verdicts, discards, a keyword's
-- or workspace's deletion through 059's trigger), adds what its new rows
-- count and takes away what its old rows counted, grouped by row and
-- written in key order after the statement's own writes, so in a
-- transaction the counter rows are the last locked (scoring locks its
-- mentions, then the wallet, then these). An update changing nothing
-- counted touches no row. A row whose matches are all gone is deleted; one
-- that lost its newest publication time has it read again from the
-- mentions of that day. No foreign key: the rows follow the mentions,
-- which follow their keyword. Writes made with the triggers off (a bulk
-- load as a restore does it, make_months moving rows) are not counted:
-- `recount_keyword_match_days` counts a keyword's rows again from its
-- mentions. The triggers are the partitioned table's, so a statement on
-- one month's partition alone is not seen (nothing writes one; a month
-- dropped whole would want a recount).
create table keyword_match_days (
  keyword_id            text not null,
  match_day             date not null,
  published_day         date not null,
  mentions              integer not null,
  relevant              integer not null,
  filtered              integer not null,
  feedback_relevant     integer not null,
  feedback_not_relevant integer not null,
  last_published_at     timestamptz not null,
  primary key (keyword_id, match_day, published_day)
);

-- A change to one row of keyword_match_days: what added rows count and
-- removed rows counted (removed counts negative), the newest publication
-- time of each side.
create type keyword_match_day_change as (
  keyword_id            text,
  match_day             date,
  published_day         date,
  mentions              integer,
  relevant              integer,
  filtered              integer,
  feedback_relevant     integer,
  feedback_not_relevant integer,
  added_last            timestamptz,
  removed_last          timestamptz
);

-- What keyword_match_days counts of a mention.
create type counted_match as (
  keyword_id       text,
  created_at       timestamptz,
  published_at     timestamptz,
  relevance        smallint,
  verdict_relevant boolean
);

-- The UTC day of an instant, and the instant a UTC day starts.
create function utc_day(at timestamptz) returns date language sql immutable parallel safe
  return (at at time zone 'UTC')::date;
create function utc_day_start(day date) returns timestamptz language sql immutable parallel safe
  return day::timestamp at time zone 'UTC';

-- The changes of keyword_match_days that mentions `added` (counted from
-- now on) and `removed` (counted until now) make, scored ones only.
create function keyword_match_day_changes(added counted_match[], removed counted_match[]) returns keyword_match_day_change[]
language sql stable as $$
  select coalesce(array_agg(row(keyword_id, match_day, published_day, mentions, relevant, filtered, feedback_relevant,
                                feedback_not_relevant, added_last, removed_last)::keyword_match_day_change
                            order by keyword_id, match_day, published_day), '{}')
  from (
    select m.keyword_id, utc_day(m.created_at) as match_day, utc_day(m.published_at) as published_day,
           sum(m.sign)::int as mentions,
           coalesce(sum(m.sign) filter (where coalesce(m.verdict_relevant, m.relevance >= 40, false)), 0)::int as relevant,
           coalesce(sum(m.sign) filter (where m.relevance is not null and not coalesce(m.verdict_relevant, m.relevance >= 40, false)), 0)::int as filtered,
           coalesce(sum(m.sign) filter (where m.verdict_relevant), 0)::int as feedback_relevant,
           coalesce(sum(m.sign) filter (where not m.verdict_relevant), 0)::int as feedback_not_relevant,
           max(m.published_at) filter (where m.sign > 0) as added_last,
           max(m.published_at) filter (where m.sign < 0) as removed_last
    from (select 1 as sign, * from unnest(added)
          union all select -1, * from unnest(removed)) m
    where m.relevance is not null or m.verdict_relevant is not null
    group by 1, 2, 3
  ) changes
$$;

-- The newest publication time of the scored matches a row of
-- keyword_match_days counts, read from the mentions of its match day.
create function keyword_match_day_last_published(keyword text, match_day date, published_day date) returns timestamptz
language sql stable as $$
  select max(m.published_at) from mentions m
  where m.keyword_id = keyword and m.created_at >= utc_day_start(match_day) and m.created_at < utc_day_start(match_day + 1)
    and m.published_at >= utc_day_start(published_day) and m.published_at < utc_day_start(published_day + 1)
    and (m.relevance is not null or m.verdict_relevant is not null)
$$;

create function apply_keyword_match_day_changes(changes keyword_match_day_change[]) returns void language plpgsql as $$
begin
  if cardinality(changes) = 0 then
    return;
  end if;
  -- In key order (keyword_match_day_changes sorts them): two statements never lock the same rows in two orders.
  insert into keyword_match_days as d
    (keyword_id, match_day, published_day, mentions, relevant, filtered, feedback_relevant, feedback_not_relevant, last_published_at)
  select c.keyword_id, c.match_day, c.published_day, c.mentions, c.relevant, c.filtered, c.feedback_relevant, c.feedback_not_relevant,
         coalesce(c.added_last, '-infinity')
  from unnest(changes) c
  order by c.keyword_id, c.match_day, c.published_day
  on conflict (keyword_id, match_day, published_day) do update set
    mentions = d.mentions + excluded.mentions,
    relevant = d.relevant + excluded.relevant,
    filtered = d.filtered + excluded.filtered,
    feedback_relevant = d.feedback_relevant + excluded.feedback_relevant,
    feedback_not_relevant = d.feedback_not_relevant + excluded.feedback_not_relevant,
    last_published_at = greatest(d.last_published_at, excluded.last_published_at);
  -- Scoring and verdicts of unscored matches only add: nothing to take away or read again.
  if not exists (select 1 from unnest(changes) c where c.removed_last is not null) then
    return;
  end if;
  delete from keyword_match_days d using unnest(changes) c
  where c.removed_last is not null and d.mentions = 0
    and (d.keyword_id, d.match_day, d.published_day) = (c.keyword_id, c.match_day, c.published_day);
  update keyword_match_days d set last_published_at = keyword_match_day_last_published(d.keyword_id, d.match_day, d.published_day)
  from unnest(changes) c
  where c.removed_last >= d.last_published_at
    and (d.keyword_id, d.match_day, d.published_day) = (c.keyword_id, c.match_day, c.published_day);
end $$;

-- Storing inserts unscored matches, which count nothing: no more than a look at the rows.
create function count_inserted_keyword_matches() returns trigger language plpgsql as $$
declare
  added constant counted_match[] := array(select row(m.keyword_id, m.created_at, m.published_at, m.relevance, m.verdict_relevant)::counted_match
                                          from inserted m where m.relevance is not null or m.verdict_relevant is not null);
begin
  if cardinality(added) > 0 then
    perform apply_keyword_match_day_changes(keyword_match_day_changes(added, '{}'));
  end if;
  return null;
end $$;

create function count_deleted_keyword_matches() returns trigger language plpgsql as $$
begin
  perform apply_keyword_match_day_changes(keyword_match_day_changes(
    '{}', array(select row(m.keyword_id, m.created_at, m.published_at, m.relevance, m.verdict_relevant)::counted_match from deleted m where m.relevance is not null or m.verdict_relevant is not null)));
  return null;
end $$;

-- Only the rows whose counted columns changed: an update of a status, a
-- triage note or a delivery counts nothing and locks nothing here.
create function count_updated_keyword_matches() returns trigger language plpgsql as $$
declare
  added counted_match[];
  removed counted_match[];
begin
  select coalesce(array_agg(row(n.keyword_id, n.created_at, n.published_at, n.relevance, n.verdict_relevant)::counted_match), '{}'),
         coalesce(array_agg(row(o.keyword_id, o.created_at, o.published_at, o.relevance, o.verdict_relevant)::counted_match), '{}')
  into added, removed
  from inserted n join deleted o on o.id = n.id
  where (o.keyword_id, o.created_at, o.published_at, o.relevance, o.verdict_relevant)
        is distinct from (n.keyword_id, n.created_at, n.published_at, n.relevance, n.verdict_relevant);
  perform apply_keyword_match_day_changes(keyword_match_day_changes(added, removed));
  return null;
end $$;

create trigger mentions_count_inserted after insert on mentions
  referencing new table as inserted for each statement execute function count_inserted_keyword_matches();
create trigger mentions_count_updated after update on mentions
  referencing old table as deleted new table as inserted for each statement execute function count_updated_keyword_matches();
create trigger mentions_count_deleted after delete on mentions
  referencing old table as deleted for each statement execute function count_deleted_keyword_matches();

-- A keyword's rows counted again from its mentions, for writes made with
-- the triggers off.
create function recount_keyword_match_days(keyword_ids text[]) returns void language plpgsql as $$
begin
  delete from keyword_match_days where keyword_id = any(keyword_ids);
  perform apply_keyword_match_day_changes(keyword_match_day_changes(
    array(select row(m.keyword_id, m.created_at, m.published_at, m.relevance, m.verdict_relevant)::counted_match from mentions m where m.keyword_id = any(keyword_ids) and (m.relevance is not null or m.verdict_relevant is not null)), '{}'));
end $$;

-- One keyword at a time: a recount holds its keyword's scored matches in
-- one array, which for every keyword of a large install at once would not
-- fit in memory.
do $$
declare
  keyword text;
begin
  for keyword in select id from keywords order by id loop
    perform recount_keyword_match_days(array[keyword]);
  end loop;
end $$;
