-- team subgraph: processes keep the API keys they authenticated in memory
-- (subgraphs/team/api-key-cache.ts) and drop one when this announces that
-- it changed: revoked, its expiry or scope altered, or deleted with its
-- workspace. The payload is the key's id; a notification is delivered when
-- the changing transaction commits, to every process listening.
create function announce_api_key_change() returns trigger
language plpgsql as $$
begin
  perform pg_notify('api_key_changes', old.id);
  return null;
end
$$;

create trigger api_key_changes
after update of revoked_at, expires_at, scope, secret_hash or delete on api_keys
for each row execute function announce_api_key_change();
