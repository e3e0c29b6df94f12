-- mentions subgraph: what the repository watcher has seen of each code-hosting
-- repository, to turn search results into the events of spec 2.1.3.
create table repositories_seen (
  full_name           text primary key,
  first_seen_at       timestamptz not null,
  stars               integer not null,
  -- a snapshot at least a week old, for stars gained in a week
  week_ago_stars      integer,
  week_ago_at         timestamptz,
  last_snapshot_at    timestamptz not null,
  traction_reported   boolean not null default false,
  milestone_reported  integer not null default 0
);
