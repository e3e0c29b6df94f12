-- mentions subgraph: the compatibility API's integer ids (spec 4.8), assigned
-- per workspace and kind when an object is first shown and never reused.
-- One map for every kind: keyword ids are translated where mentions are
-- filtered and where keywords change, and the subgraphs import one way
-- (keywords → mentions), so the map lives in the lower one.
create table compat_ids (
  workspace_id  text not null references workspaces (id) on delete cascade,
  kind          text not null check (kind in ('keyword', 'mention', 'feedback', 'suggestion')),
  -- the object's own id (kw_…, mm_…); a suggestion's is its keyword, type and values
  object_id     text not null,
  compat_id     integer not null check (compat_id > 0),
  primary key (workspace_id, kind, object_id),
  unique (workspace_id, kind, compat_id)
);

-- mentions subgraph: what a verdict given through the compatibility API's
-- feedback route said beside it; the verdict itself is the mention's.
create table compat_feedback (
  mention_id  text primary key references mentions (id) on delete cascade,
  reason      text,
  source      text not null check (source in ('WEB', 'EMAIL', 'API', 'SLACK')),
  created_at  timestamptz not null default now()
);

-- mentions subgraph: match times in milliseconds. A page cursor carries the
-- last mention's match time as JavaScript reads it (milliseconds); with
-- microseconds, the mentions one statement stored (a poll's batch, all at
-- the same now()) sorted after their cursor and their next page came back empty.
alter table mentions alter column created_at set default date_trunc('milliseconds', now());
update mentions set created_at = date_trunc('milliseconds', created_at) where created_at <> date_trunc('milliseconds', created_at);
