-- mentions subgraph: authors, posts (stored once) and mentions (one per post and keyword).
create table authors (
  id           text primary key,
  platform     text not null,
  platform_id  text not null,
  name         text not null,
  handle       text not null,
  url          text not null,
  avatar_url   text,
  followers    integer,
  tags         text[] not null default '{}',
  updated_at   timestamptz not null default now(),
  unique (platform, platform_id)
);

create table posts (
  id            text primary key,
  platform      text not null,
  external_id   text not null,
  url           text not null,
  text          text not null,
  published_at  timestamptz not null,
  reply_to      text,
  links         text[] not null default '{}',
  author_id     text not null references authors (id),
  subreddit     text,
  rating        smallint,
  created_at    timestamptz not null default now(),
  unique (platform, external_id)
);

create table mentions (
  id                     text primary key,
  workspace_id           text not null references workspaces (id) on delete cascade,
  -- deleting a keyword deletes its mentions; what was charged stays in the ledger
  keyword_id             text not null references keywords (id) on delete cascade,
  post_id                text not null references posts (id),
  status                 text not null default 'open' check (status in ('open', 'done', 'ignored')),
  -- matched only by the words-close-together rule: kept and billed only when scored relevant
  fuzzy                  boolean not null default false,
  delivered              boolean not null default false,
  priority               real not null default 0,
  relevance              smallint,
  sentiment              text,
  intents                text[],
  automated              boolean,
  language               text,
  classification_note    text,
  classification_failed  boolean not null default false,
  classified_at          timestamptz,
  verdict_relevant       boolean,
  verdict_sentiment      text,
  assignee_id            text,
  snoozed_until          timestamptz,
  triage_note            text,
  created_at             timestamptz not null default now(),
  unique (keyword_id, post_id)
);
create index mentions_by_workspace on mentions (workspace_id, created_at desc, id desc);
create index mentions_by_keyword on mentions (keyword_id, created_at desc);
