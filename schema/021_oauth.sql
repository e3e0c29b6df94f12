-- team subgraph: the OAuth 2.1 authorization server (issue 13 point 4, spec 5.2).
-- Clients register themselves (RFC 7591). Every client is public: it holds no
-- secret, PKCE protects its codes and one-time refresh tokens its grant.
create table oauth_clients (
  -- the client_id handed out at registration, a random UUID (not a secret)
  id          text primary key,
  name        text,
  -- the registered metadata as the registration answered it (redirect URIs included)
  metadata    jsonb not null,
  created_at  timestamptz not null default now()
);

-- One consent: a client acting for a user on one workspace with one scope.
-- Its tokens are one family: revoking the grant ends every one of them.
create table oauth_grants (
  id            text primary key,
  client_id     text not null references oauth_clients (id) on delete cascade,
  user_id       text not null references users (id) on delete cascade,
  workspace_id  text not null references workspaces (id) on delete cascade,
  scope         text not null check (scope in ('read', 'write')),
  -- the RFC 8707 resource the client asked for, if any
  resource      text,
  created_at    timestamptz not null,
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
create index oauth_grants_by_workspace on oauth_grants (workspace_id, id) where revoked_at is null;

-- Codes handed to the client's redirect URI after consent; only the SHA-256 of each is stored.
create table oauth_authorization_codes (
  code_hash       bytea primary key,
  client_id       text not null references oauth_clients (id) on delete cascade,
  user_id         text not null references users (id) on delete cascade,
  workspace_id    text not null references workspaces (id) on delete cascade,
  scope           text not null check (scope in ('read', 'write')),
  redirect_uri    text not null,
  code_challenge  text not null,
  resource        text,
  expires_at      timestamptz not null,
  -- set when the code is exchanged: a second exchange revokes this grant (RFC 6749 4.1.2)
  grant_id        text references oauth_grants (id) on delete cascade
);

-- Access and refresh tokens: 256 random bits each, so a SHA-256 is all that is kept.
create table oauth_tokens (
  token_hash  bytea primary key,
  grant_id    text not null references oauth_grants (id) on delete cascade,
  kind        text not null check (kind in ('access', 'refresh')),
  scope       text not null check (scope in ('read', 'write')),
  expires_at  timestamptz not null,
  -- a refresh token's one use: set when it is rotated; a second use revokes the grant
  used_at     timestamptz
);
create index oauth_tokens_by_grant on oauth_tokens (grant_id);
