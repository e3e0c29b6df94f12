-- team subgraph: dashboard sessions and the count of failed sign-ins (issue 13).
create table sessions (
  id            text primary key,
  -- sha-256 of the cookie's value: it carries 256 random bits, so a slow hash buys nothing
  token_hash    bytea not null unique,
  user_id       text not null references users (id) on delete cascade,
  workspace_id  text not null references workspaces (id) on delete cascade,
  created_at    timestamptz not null default now(),
  expires_at    timestamptz not null,
  revoked_at    timestamptz
);
create index sessions_by_user on sessions (user_id);

-- Failed sign-ins per address and per account, in fixed windows, shared by every process.
create table sign_in_failures (
  subject       text not null,
  window_start  timestamptz not null,
  failures      integer not null,
  primary key (subject, window_start)
);

-- Single-use sign-in links sent by e-mail; only the hash of the token is stored.
create table magic_links (
  token_hash  bytea primary key,
  user_id     text not null references users (id) on delete cascade,
  expires_at  timestamptz not null,
  used_at     timestamptz
);
create index magic_links_by_user on magic_links (user_id);
