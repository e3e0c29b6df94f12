-- mentions subgraph: stored matches, one per post and keyword.
create table mentions (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  keyword_id    text not null references keywords (id) on delete cascade,
  platform      text not null,
  url           text not null,
  text          text not null,
  published_at  timestamptz not null,
  status        text not null default 'open' check (status in ('open', 'done', 'ignored')),
  created_at    timestamptz not null default now()
);
create index mentions_by_workspace on mentions (workspace_id, created_at desc, id desc);
