-- team subgraph: people and the workspaces they belong to (issue 13).
create table users (
  id          text primary key,
  -- kept lower-cased: one person, one account, however the address is typed
  email       text not null unique check (email = lower(email)),
  name        text not null,
  -- `scrypt$N$r$p$salt$hash` (base64url); null until the user sets a password
  password_hash text,
  created_at  timestamptz not null default now()
);

create table workspace_members (
  workspace_id  text not null references workspaces (id) on delete cascade,
  user_id       text not null references users (id) on delete cascade,
  role          text not null check (role in ('owner', 'admin', 'member')),
  joined_at     timestamptz not null default now(),
  primary key (workspace_id, user_id)
);
create index workspace_members_by_user on workspace_members (user_id);
