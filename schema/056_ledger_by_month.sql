-- billing subgraph: the ledger partitioned by the month of its entries' time
-- (occurred_at), as mentions are by their match time (053; issue 18 point
-- 8, measured by `npm run bench -- partitions`, SCALE.md section 3). What
-- the wallet reports read is bounded by time (usage by day, the month's
-- cost, the burn of the last seven days), so it reads only its months, and
-- an old month can later be detached whole.
--
-- A partitioned table's unique constraints must hold the partition key, and
-- an idempotency key does not fix its entry's time (the webhook and the poll
-- credit one top-up at different moments), so the keys move to a table of
-- their own, one row per entry naming it. Every statement that charges or
-- credits writes the keys first, `on conflict do nothing`, and inserts only
-- the entries whose key it wrote, so a thing is still charged or credited
-- once however many workers charge it at once. The ledger's trigger keeps
-- the database itself refusing a second entry for a key (below).
create table ledger_idempotency_keys (
  idempotency_key  text primary key,
  entry_id         text not null,
  -- a key leaves with its wallet, as its entry does
  workspace_id     text not null references wallets (workspace_id) on delete cascade
);
insert into ledger_idempotency_keys (idempotency_key, entry_id, workspace_id)
select idempotency_key, id, workspace_id from ledger_entries;

alter table ledger_entries rename to ledger_entries_unpartitioned;
create table ledger_entries (like ledger_entries_unpartitioned including defaults including constraints) partition by range (occurred_at);

do $$
declare
  first_month timestamptz := date_trunc('month', least(now(), (select min(occurred_at) from ledger_entries_unpartitioned)), 'UTC');
begin
  execute format('create table ledger_entries_earlier partition of ledger_entries for values from (minvalue) to (%L)', first_month);
  execute format('create table ledger_entries_later partition of ledger_entries for values from (%L) to (maxvalue)', first_month);
end
$$;
select make_months('ledger_entries', greatest(now(), (select max(occurred_at) from ledger_entries_unpartitioned)) + interval '1 month');

-- The rows as they are: no trigger here yet, so no balance or cap count moves.
insert into ledger_entries select * from ledger_entries_unpartitioned;
drop table ledger_entries_unpartitioned;

alter table ledger_entries add constraint ledger_entries_pkey primary key (id, occurred_at),
  add constraint ledger_entries_workspace_id_fkey foreign key (workspace_id) references wallets (workspace_id) on delete cascade;
create index ledger_by_workspace on ledger_entries (workspace_id, occurred_at);
create index ledger_by_keyword on ledger_entries (keyword_id, occurred_at) where keyword_id is not null;

-- The trigger that moves balances and cap counts (005) also keeps every
-- entry's key: one it wrote already is found, one written by hand without
-- its key is claimed, and one another entry holds is refused as a
-- duplicate, as the unique index did, in one statement for all the rows.
create or replace function apply_ledger_entries() returns trigger language plpgsql as $$
begin
  insert into ledger_idempotency_keys (idempotency_key, entry_id, workspace_id)
  select i.idempotency_key, i.id, i.workspace_id from inserted i
  where not exists (select 1 from ledger_idempotency_keys k where k.idempotency_key = i.idempotency_key and k.entry_id = i.id);
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
create trigger ledger_entries_append_only before update on ledger_entries
  for each statement execute function refuse_ledger_update();
