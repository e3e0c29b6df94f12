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
