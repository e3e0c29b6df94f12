-- team subgraph: workspaces, API keys and the request budget they draw on.
create table workspaces (
  id          text primary key,
  name        text not null,
  created_at  timestamptz not null default now()
);

create table api_keys (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  name          text not null,
  prefix        text not null,
  -- sha-256 of the whole key: keys carry 256 random bits, so a slow hash buys nothing
  secret_hash   bytea not null unique,
  scope         text not null check (scope in ('read', 'write')),
  created_at    timestamptz not null default now(),
  last_used_at  timestamptz,
  expires_at    timestamptz,
  revoked_at    timestamptz
);
create index api_keys_by_workspace on api_keys (workspace_id, id) where revoked_at is null;

-- One row per workspace and minute: the rate limit shared by every process.
create table request_budgets (
  workspace_id  text not null references workspaces (id) on delete cascade,
  window_start  timestamptz not null,
  used          integer not null,
  primary key (workspace_id, window_start)
);

-- Deployment-wide values every process must agree on (the gateway's signing secret).
create table deployment_secrets (
  name   text primary key,
  value  text not null
);
