-- team subgraph: the outbox of account events (spec 6.4). A row is written in
-- the transaction of the transition it records; delivery reads it later, and
-- its id is the delivery's stable identity across retries.
create table account_events (
  id            text primary key,
  -- recording order, also within one transaction (ids are only ordered by the millisecond)
  seq           bigint generated always as identity unique,
  workspace_id  text not null references workspaces (id) on delete cascade,
  name          text not null,
  data          jsonb not null,
  occurred_at   timestamptz not null,
  created_at    timestamptz not null default now()
);
create index account_events_by_workspace on account_events (workspace_id, seq);
