-- team subgraph: invitations to join a workspace (spec 3.5.1, 4.5; issue 13).
-- A row is pending until the invitee accepts or declines it; it is expired
-- when still pending at `expires_at`, judged when read (no job flips it).
-- Withdrawing an invitation deletes it, and so does sending a new one to the
-- same address, which replaces it.
create table invitations (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  -- kept lower-cased, like users.email: the invitee proves this address by the mailed token
  email         text not null check (email = lower(email)),
  role          text not null check (role in ('owner', 'admin', 'member')),
  invited_by    text references users (id) on delete set null,
  -- sha-256 of the mailed token, which carries 256 random bits; the token itself is never stored
  token_hash    bytea not null unique,
  status        text not null default 'pending' check (status in ('pending', 'accepted', 'declined')),
  created_at    timestamptz not null,
  expires_at    timestamptz not null,
  responded_at  timestamptz,
  -- the user the acceptance made a member (created then if the address had no user)
  accepted_by   text references users (id) on delete set null
);
create index invitations_by_workspace on invitations (workspace_id, created_at, id);
-- at most one pending invitation per address and workspace: a new one replaces it
create unique index invitations_pending_once on invitations (workspace_id, email) where status = 'pending';
