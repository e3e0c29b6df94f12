-- billing subgraph: the wallet's running state beside its ledger, per-keyword
-- counts of charged items for caps, and top-up orders.

alter table wallets
  -- the ledger's exact sum, kept by the trigger below; never written by hand
  add column balance_fifteenths       bigint not null default 0,
  -- every credit (welcome, top-up, operator) opens an epoch; wallet.low is
  -- recorded once per epoch (spec 3.2), at 20% of that epoch's credit
  add column credit_epoch             integer not null default 0,
  add column last_credit_fifteenths   bigint not null default 0,
  add column low_recorded_epoch       integer not null default 0,
  -- the last UTC day the daily tick charged or paused this wallet's keywords
  add column settled_through          date;

update wallets w set balance_fifteenths = coalesce((select sum(l.amount_fifteenths) from ledger_entries l where l.workspace_id = w.workspace_id), 0);

-- A charged item always belongs to a keyword: its cap counts it.
alter table ledger_entries add constraint ledger_items_have_keyword check (kind not in ('mention', 'comment') or keyword_id is not null);

-- Matched mentions plus delivered comments per keyword and UTC day of the
-- charge: a cap compares the sum over its period (day, week or month, each
-- starting at a UTC midnight) without counting ledger rows one by one.
-- No foreign key: like the ledger, the counts outlive a deleted keyword.
create table keyword_charged_items (
  keyword_id  text not null,
  day         date not null,
  items       integer not null,
  primary key (keyword_id, day)
);

insert into keyword_charged_items (keyword_id, day, items)
select keyword_id, (occurred_at at time zone 'UTC')::date, count(*)
from ledger_entries where kind in ('mention', 'comment')
group by 1, 2;

-- The balance and the cap counts follow from the ledger rows themselves, so
-- no code path can charge or credit without moving them: one aggregated
-- update per statement, which keeps the daily tick's bulk insert cheap.
create function apply_ledger_entries() returns trigger language plpgsql as $$
begin
  update wallets w set balance_fifteenths = w.balance_fifteenths + s.amount
  from (select workspace_id, sum(amount_fifteenths) as amount from inserted group by workspace_id) s
  where w.workspace_id = s.workspace_id;
  insert into keyword_charged_items (keyword_id, day, items)
  select keyword_id, (occurred_at at time zone 'UTC')::date, count(*)
  from inserted where kind in ('mention', 'comment')
  group by 1, 2
  on conflict (keyword_id, day) do update set items = keyword_charged_items.items + excluded.items;
  return null;
end $$;

create trigger ledger_entries_apply after insert on ledger_entries
  referencing new table as inserted for each statement execute function apply_ledger_entries();

-- Append-only: a charge or credit is corrected by another entry, never by an
-- edit. Rows leave only with their wallet (workspace deletion cascades).
create function refuse_ledger_update() returns trigger language plpgsql as $$
begin
  raise exception 'ledger_entries is append-only';
end $$;

create trigger ledger_entries_append_only before update on ledger_entries
  for each statement execute function refuse_ledger_update();

create table top_up_orders (
  id                   text primary key,
  workspace_id         text not null references wallets (workspace_id) on delete cascade,
  amount_cents         integer not null check (amount_cents > 0),
  status               text not null default 'pending' check (status in ('pending', 'credited', 'expired', 'failed')),
  checkout_session_id  text unique,
  checkout_url         text,
  created_at           timestamptz not null,
  credited_at          timestamptz
);
create index top_up_orders_by_workspace on top_up_orders (workspace_id, created_at desc);
