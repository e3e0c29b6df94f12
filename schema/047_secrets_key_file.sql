-- runtime: where the deployment's secrets key file is when EARSHOT_SECRETS_KEY
-- is unset (runtime/secret-box.ts). Only the path, never the key: every
-- process of the machine then uses the same file whatever its
-- EARSHOT_DATA_DIR, and a copy of the database still opens no secret.
create table secrets_key_file (
  only_row boolean primary key default true check (only_row),
  path text not null
);
