-- keywords subgraph: groups, keywords and what the matcher and classifier read.
create table keyword_groups (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  name          text not null,
  external_id   text,
  -- read by the classifier for every keyword of the group
  description   text,
  is_default    boolean not null default false,
  created_at    timestamptz not null default now()
);
create unique index keyword_groups_one_default on keyword_groups (workspace_id) where is_default;
create unique index keyword_groups_by_name on keyword_groups (workspace_id, lower(name));
create unique index keyword_groups_by_external_id on keyword_groups (workspace_id, external_id) where external_id is not null;

create table keywords (
  id                      text primary key,
  workspace_id            text not null references workspaces (id) on delete cascade,
  group_id                text not null references keyword_groups (id),
  term                    text not null,
  kind                    text not null default 'brand' check (kind in ('brand', 'competitor', 'topic')),
  muted                   boolean not null default false,
  paused_for_balance      boolean not null default false,
  paused_for_noise        boolean not null default false,
  paused_for_cap          boolean not null default false,
  -- the user's own cap; the welcome cap is applied on read while the workspace runs on its welcome credit
  cap_mentions            integer check (cap_mentions between 1 and 1000000),
  cap_per                 text check (cap_per in ('day', 'week', 'month')),
  comments_enabled        boolean not null default false,
  comments_max_per_post   integer not null default 20 check (comments_max_per_post between 1 and 100),
  platforms               text[],
  context                 text check (char_length(context) <= 300),
  required_terms          text[] not null default '{}',
  required_mode           text not null default 'any' check (required_mode in ('any', 'all')),
  excluded_terms          text[] not null default '{}',
  excluded_authors        text[] not null default '{}',
  case_sensitive          boolean not null default false,
  exact_phrase            boolean not null default false,
  subreddits_only         text[] not null default '{}',
  subreddits_excluded     text[] not null default '{}',
  repository_events       text[] not null default '{traction,stars,growth}',
  repository_min_stars    integer,
  repository_min_weekly_stars integer,
  -- last change of matching rules, platforms or context, or unmute: health judges matches since then
  judged_since            timestamptz,
  created_at              timestamptz not null default now(),
  updated_at              timestamptz not null default now()
);
create index keywords_by_workspace on keywords (workspace_id, id);
-- "A group tracks a term once" (spec 2.2), whatever the case.
create unique index keywords_term_per_group on keywords (group_id, lower(term));

create table keyword_feeds (
  keyword_id     text not null references keywords (id) on delete cascade,
  position       integer not null,
  url            text not null,
  title          text,
  connected_at   timestamptz not null default now(),
  etag           text,
  last_modified  text,
  primary key (keyword_id, url)
);

create table keyword_review_sources (
  keyword_id    text not null references keywords (id) on delete cascade,
  position      integer not null,
  platform      text not null check (platform in ('appstore', 'googleplay', 'trustpilot', 'googlemaps')),
  source_id     text not null,
  url           text not null,
  countries     text[] not null default '{}',
  language      text,
  connected_at  timestamptz not null default now(),
  primary key (keyword_id, platform, source_id)
);

-- Scheduler state per keyword and polled platform (spec 2.1 `polling`).
create table keyword_polls (
  keyword_id      text not null references keywords (id) on delete cascade,
  platform        text not null,
  last_polled_at  timestamptz,
  empty_polls     integer not null default 0,
  next_poll_at    timestamptz not null default now(),
  primary key (keyword_id, platform)
);

create table workspace_filters (
  workspace_id         text primary key references workspaces (id) on delete cascade,
  excluded_terms       text[] not null default '{}',
  excluded_authors     text[] not null default '{}',
  github_repositories  text[] not null default '{}',
  subreddits_allowed   text[] not null default '{}',
  subreddits_denied    text[] not null default '{}',
  updated_at           timestamptz not null default now()
);

create table company_profiles (
  workspace_id  text primary key references workspaces (id) on delete cascade,
  name          text,
  description   text,
  website       text,
  competitors   text[] not null default '{}',
  guidelines    text,
  updated_at    timestamptz not null default now()
);
