-- billing subgraph: the ledger's entries and idempotency keys are tied to
-- their wallet once per statement instead of once per row (issue 18, aim 4).
-- Their two foreign keys to wallets (004, 056) each ran a look-up of the
-- wallet per row written: two of the seven foreign-key look-ups that every
-- stored, charged mention cost, each an executor started and a row locked.
-- The ledger's statement trigger already updates every wallet its rows
-- name, once per statement, which locks the wallet as the foreign key did
-- (more strongly) and finds it missing when it is: a statement naming a
-- workspace without a wallet is refused, with the foreign key's error and
-- name, before anything it wrote can commit. A key is written only in the
-- statement that writes its entry (`keyedLedgerEntries`, or this trigger's
-- claim), so the entry's check covers it. What the foreign keys also did,
-- deleting a wallet's entries and keys with it, a statement trigger on
-- wallets does.
alter table ledger_entries drop constraint ledger_entries_workspace_id_fkey;
alter table ledger_idempotency_keys drop constraint ledger_idempotency_keys_workspace_id_fkey;

create or replace function apply_ledger_entries() returns trigger language plpgsql as $$
declare
  wallets_moved bigint;
begin
  update wallets w set balance_fifteenths = w.balance_fifteenths + s.amount
  from (select workspace_id, sum(amount_fifteenths) as amount from inserted group by workspace_id) s
  where w.workspace_id = s.workspace_id;
  get diagnostics wallets_moved = row_count;
  if wallets_moved < (select count(distinct workspace_id) from inserted) then
    raise foreign_key_violation using
      message = 'insert or update on table "ledger_entries" violates foreign key constraint "ledger_entries_workspace_id_fkey"',
      detail = 'A ledger entry names a workspace that has no wallet.',
      constraint = 'ledger_entries_workspace_id_fkey', table = 'ledger_entries';
  end if;
  insert into ledger_idempotency_keys (idempotency_key, entry_id, workspace_id)
  select i.idempotency_key, i.id, i.workspace_id from inserted i
  where not exists (select 1 from ledger_idempotency_keys k where k.idempotency_key = i.idempotency_key and k.entry_id = i.id);
  insert into keyword_charged_items (keyword_id, day, items)
  select keyword_id, (occurred_at at time zone 'UTC')::date, count(*)
  from inserted where kind in ('mention', 'comment')
  group by 1, 2
  on conflict (keyword_id, day) do update set items = keyword_charged_items.items + excluded.items;
  return null;
end $$;

create function delete_wallet_ledgers() returns trigger language plpgsql as $$
begin
  delete from ledger_idempotency_keys k using deleted d where k.workspace_id = d.workspace_id;
  delete from ledger_entries l using deleted d where l.workspace_id = d.workspace_id;
  return null;
end $$;

create trigger wallets_delete_ledger after delete on wallets
  referencing old table as deleted for each statement execute function delete_wallet_ledgers();
