-- mentions subgraph: saved views (spec 2.11, 4.7; issue 14 point 4). A view
-- is a named set of the mention list's filters (spec 4.3) and its sort,
-- shared by the whole workspace; `viewId` applies it to the list, the
-- export and the GraphQL field. `filter` holds the filter as checked when
-- the view was saved (the GraphQL input's JSON, timestamps as ISO 8601).
create table mention_views (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  name          text not null check (char_length(name) between 1 and 100),
  filter        jsonb not null default '{}' check (jsonb_typeof(filter) = 'object'),
  sort          text not null default 'newest' check (sort in ('newest', 'priority')),
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now()
);

-- Names are unique in a workspace whatever their case (spec 7 `duplicate_view`).
create unique index mention_views_by_name on mention_views (workspace_id, lower(name));

-- The compatibility API numbers views as it numbers keywords and mentions (spec 4.8).
alter table compat_ids drop constraint compat_ids_kind_check;
alter table compat_ids add constraint compat_ids_kind_check check (kind in ('keyword', 'mention', 'feedback', 'suggestion', 'view'));
