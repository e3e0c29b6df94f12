-- billing subgraph: wallets and the append-only ledger their balance derives from.
create table wallets (
  workspace_id           text primary key references workspaces (id) on delete cascade,
  -- true until the first top-up: keywords then carry the welcome cap (spec 2.1.1)
  on_welcome_credit      boolean not null default true,
  auto_recharge_enabled  boolean not null default false,
  auto_recharge_threshold_cents integer,
  auto_recharge_amount_cents    integer,
  created_at             timestamptz not null default now()
);

-- Money in fifteenths of a cent: a keyword day (500/30 = 50/3 cents) is 250 and a
-- mention or comment (0.8 cents) is 12, so every charge is an exact integer and
-- each cents figure is rounded once, on its total (spec 2.1.4).
create table ledger_entries (
  id                 text primary key,
  workspace_id       text not null references wallets (workspace_id) on delete cascade,
  kind               text not null check (kind in ('welcome_credit', 'top_up', 'operator_credit', 'keyword_day', 'mention', 'comment')),
  keyword_id         text,
  -- credits positive, charges negative
  amount_fifteenths  bigint not null,
  -- the charged thing: keyword-day, mention id, comment id or top-up order id
  idempotency_key    text not null unique,
  occurred_at        timestamptz not null default now(),
  created_at         timestamptz not null default now()
);
create index ledger_by_workspace on ledger_entries (workspace_id, occurred_at);
create index ledger_by_keyword on ledger_entries (keyword_id, occurred_at) where keyword_id is not null;
