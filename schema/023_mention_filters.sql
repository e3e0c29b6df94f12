-- mentions subgraph: triage (spec 3.3, 4.3), the list filters of spec 4.3,
-- and CSV export grants (spec 4.3, 8).

-- An assignee is a member of the mention's workspace. The database checks it
-- against team's members (as alert_rule_channels does against channels),
-- so the mentions subgraph never imports team; a member who leaves the
-- workspace leaves their mentions unassigned.
alter table mentions
  add constraint mentions_assignee_is_member foreign key (workspace_id, assignee_id)
    references workspace_members (workspace_id, user_id) on delete set null (assignee_id);
create index mentions_by_assignee on mentions (workspace_id, assignee_id, created_at desc, id desc) where assignee_id is not null;

-- Every host a post links to, and each domain above it (`docs.github.com`,
-- `github.com`, `com`): the `linkHosts` filters compare hosts against it,
-- so a host matches itself and its subdomains, and an index serves them.
create function link_domains(links text[]) returns text[]
language sql immutable strict parallel safe
as $$
  select coalesce(array_agg(distinct array_to_string(labels[i:], '.')), '{}')
  from unnest(links) as link,
       lateral (select string_to_array(lower(substring(link from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^:/?#]+)')), '.') as labels) as host,
       lateral generate_subscripts(host.labels, 1) as i
$$;
alter table posts add column link_domains text[] not null generated always as (link_domains(links)) stored;
create index posts_by_link_domain on posts using gin (link_domains);

-- An export granted by the mentions subgraph (filter checked, rate limit
-- counted) and streamed by the REST facade once. Rows of the last minute
-- are the workspace's export count (spec 8: 6 a minute), shared by every
-- process.
create table mention_exports (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  filter        jsonb not null,
  created_at    timestamptz not null default now(),
  streamed_at   timestamptz
);
create index mention_exports_by_workspace on mention_exports (workspace_id, created_at);
