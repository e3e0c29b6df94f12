-- keywords subgraph: the tracked terms.
create table keywords (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  term          text not null,
  created_at    timestamptz not null default now()
);
create index keywords_by_workspace on keywords (workspace_id, id);
