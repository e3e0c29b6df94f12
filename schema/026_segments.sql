-- mentions subgraph: segments, named filter sets over the workspace's people
-- (issue 14 point 4); the filter is the people list's (linkHosts, stages,
-- ownerIds, automated, q), stored as sent after checking.
create table segments (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  name          text not null,
  filter        jsonb not null default '{}',
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now()
);
-- one name per workspace, whatever its case (duplicate_segment)
create unique index segments_by_name on segments (workspace_id, lower(name));
create index segments_by_workspace on segments (workspace_id, created_at, id);
