-- mentions subgraph: thread comments under relevant mentions (spec 2.1.2).
create table comments (
  id            text primary key,
  mention_id    text not null references mentions (id) on delete cascade,
  external_id   text not null,
  url           text not null,
  text          text not null,
  published_at  timestamptz not null,
  author_name   text not null,
  author_handle text not null,
  author_url    text not null,
  -- delivered comments are billed; a comment that names the keyword is a mention instead
  delivered     boolean not null default true,
  created_at    timestamptz not null default now(),
  unique (mention_id, external_id)
);

-- Threads being followed: read from 30 minutes after the post until `until`.
create table comment_watches (
  mention_id       text primary key references mentions (id) on delete cascade,
  next_check_at    timestamptz not null,
  until            timestamptz not null,
  last_checked_at  timestamptz
);
create index comment_watches_due on comment_watches (next_check_at);
