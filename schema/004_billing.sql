-- billing subgraph: wallets and the append-only ledger their balance derives from.
create table wallets (
  workspace_id  text primary key references workspaces (id) on delete cascade,
  created_at    timestamptz not null default now()
);

create table ledger_entries (
  id               text primary key,
  workspace_id     text not null references wallets (workspace_id) on delete cascade,
  kind             text not null,
  -- credits positive, charges negative
  amount_cents     bigint not null,
  idempotency_key  text not null unique,
  created_at       timestamptz not null default now()
);
create index ledger_by_workspace on ledger_entries (workspace_id, created_at);
