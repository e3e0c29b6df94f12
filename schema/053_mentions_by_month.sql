-- mentions subgraph: mentions partitioned by the month of their match time
-- (issue 18 point 8, measured by `npm run bench -- partitions`, SCALE.md
-- section 3). The list orders by match time, newest first: with the months
-- as range partitions and none of them a default one (a default partition
-- may hold any time, so the planner could no longer read the months in
-- order), a first page reads the newest month and stops once it is full,
-- and a cursor page reads only the months up to its cursor. Old months can
-- later be detached whole.
--
-- A partitioned table's unique constraints must hold the partition key, so
-- what must stay unique without it moves to mention_keys: one row per
-- mention, written in the same statement as the mention (storeMatchedPosts),
-- whose unique (keyword_id, post_id) keeps a post stored, and so charged,
-- once per keyword however many workers store it at once; its id is what
-- comments, watches and compatibility feedback refer to, and its
-- created_at is the mention's (never changed after the insert), so a
-- mention looked up by id alone reads its own month.
create table mention_keys (
  id          text primary key,
  -- deleting a keyword deletes its mentions, their keys and what refers to them
  keyword_id  text not null references keywords (id) on delete cascade,
  post_id     text not null,
  created_at  timestamptz not null,
  unique (keyword_id, post_id)
);
insert into mention_keys (id, keyword_id, post_id, created_at)
select id, keyword_id, post_id, created_at from mentions;

alter table comments drop constraint comments_mention_id_fkey,
  add constraint comments_mention_id_fkey foreign key (mention_id) references mention_keys (id) on delete cascade;
alter table comment_watches drop constraint comment_watches_mention_id_fkey,
  add constraint comment_watches_mention_id_fkey foreign key (mention_id) references mention_keys (id) on delete cascade;
alter table compat_feedback drop constraint compat_feedback_mention_id_fkey,
  add constraint compat_feedback_mention_id_fkey foreign key (mention_id) references mention_keys (id) on delete cascade;

alter table mentions rename to mentions_unpartitioned;
create table mentions (like mentions_unpartitioned including defaults including constraints) partition by range (created_at);

-- Makes the months of a table partitioned by month (mentions here, the
-- ledger in 056) from the one its `<table>_later` starts at through the one
-- holding `through`, moving into them any rows `<table>_later` holds (none
-- while the months are made ahead of time: the daily billing tick and every
-- worker's start make them a month ahead). `<table>_earlier` and
-- `<table>_later` bound the months on either side, so an insert never fails
-- for want of a month. Rows moved are not new rows: the table's own
-- triggers (the ledger's, which move balances) do not fire for them.
create function make_months(parent regclass, through timestamptz) returns void
language plpgsql as $$
declare
  later constant regclass := (parent::text || '_later')::regclass;
  later_bound constant text := 'FROM \(''([^'']+)''\)';
  month_start timestamptz;
  key_column name;
begin
  select (regexp_match(pg_get_expr(relpartbound, oid), later_bound))[1]::timestamptz into month_start
  from pg_class where oid = later;
  if month_start > through then
    return;
  end if;
  -- Two workers starting together: the second finds the months made.
  perform pg_advisory_xact_lock(hashtext('make_months ' || parent::text));
  select (regexp_match(pg_get_expr(relpartbound, oid), later_bound))[1]::timestamptz into month_start
  from pg_class where oid = later;
  if month_start > through then
    return;
  end if;
  select a.attname into key_column
  from pg_partitioned_table p join pg_attribute a on a.attrelid = p.partrelid and a.attnum = p.partattrs[0]
  where p.partrelid = parent;
  execute format('alter table %s detach partition %s', parent, later);
  while month_start <= through loop
    execute format('create table %I partition of %s for values from (%L) to (%L)',
                   parent::text || '_' || to_char(month_start at time zone 'UTC', 'YYYY_MM'), parent,
                   month_start, (month_start at time zone 'UTC' + interval '1 month') at time zone 'UTC');
    month_start := (month_start at time zone 'UTC' + interval '1 month') at time zone 'UTC';
  end loop;
  execute format('alter table %s disable trigger user', parent);
  execute format('insert into %s select * from %s where %I < %L', parent, later, key_column, month_start);
  execute format('alter table %s enable trigger user', parent);
  execute format('delete from %s where %I < %L', later, key_column, month_start);
  execute format('alter table %s attach partition %s for values from (%L) to (maxvalue)', parent, later, month_start);
end
$$;

do $$
declare
  first_month timestamptz := date_trunc('month', least(now(), (select min(created_at) from mentions_unpartitioned)), 'UTC');
begin
  execute format('create table mentions_earlier partition of mentions for values from (minvalue) to (%L)', first_month);
  execute format('create table mentions_later partition of mentions for values from (%L) to (maxvalue)', first_month);
end
$$;
select make_months('mentions', greatest(now(), (select max(created_at) from mentions_unpartitioned)) + interval '1 month');

-- Analytics bounds a range of publication times by match time (a post is
-- matched after it is published), so a mention's publication time is at
-- most its match time: a platform dating a post later than it was seen
-- (a clock ahead) counts it at its match time instead.
update mentions_unpartitioned set published_at = created_at where published_at > created_at;
insert into mentions select * from mentions_unpartitioned;
drop table mentions_unpartitioned;

alter table mentions add constraint mentions_pkey primary key (id, created_at),
  add constraint mentions_workspace_id_fkey foreign key (workspace_id) references workspaces (id) on delete cascade,
  add constraint mentions_keyword_id_fkey foreign key (keyword_id) references keywords (id) on delete cascade,
  add constraint mentions_post_id_fkey foreign key (post_id) references posts (id),
  add constraint mentions_assignee_is_member foreign key (workspace_id, assignee_id)
    references workspace_members (workspace_id, user_id) on delete set null (assignee_id);
create index mentions_by_workspace on mentions (workspace_id, created_at desc, id desc);
create index mentions_unscored on mentions (created_at) where relevance is null and not classification_failed;
create index mentions_by_post on mentions (post_id);
create index mentions_by_assignee on mentions (workspace_id, assignee_id, created_at desc, id desc) where assignee_id is not null;
create index mentions_by_priority on mentions (workspace_id, priority desc, created_at desc, id desc);
-- The match time is included: analytics bounds its range by it too, and a
-- scan reading it from the table would no longer be index-only.
create index mentions_by_relevance_and_publication on mentions
  (workspace_id, (coalesce(verdict_relevant, relevance >= 40, false)), published_at)
  include (keyword_id, platform, relevance, verdict_relevant, sentiment, verdict_sentiment, language, intents, created_at);
create index mentions_by_keyword_counted on mentions (keyword_id, created_at)
  include (published_at, fuzzy, relevance, verdict_relevant);
create index mentions_by_language on mentions (workspace_id, language, created_at desc, id desc);
create statistics mentions_effective_sentiment on (coalesce(verdict_sentiment, sentiment)) from mentions;
create statistics mentions_relevant on (coalesce(verdict_relevant, relevance >= 40, false)) from mentions;
