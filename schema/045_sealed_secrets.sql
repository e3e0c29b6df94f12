-- team subgraph and the runtime: secrets Earshot must read back in clear are
-- stored sealed (AES-256-GCM under a key kept outside the database,
-- runtime/secret-box.ts), as `v<key>.` + base64url; issue 17 point 5.
-- A migration cannot know the key, so rows written before are sealed by
-- the start-up step of runtime/sealed-secrets.ts, which then validates these
-- constraints. Until then they hold for every row written or changed, so
-- no code path can store a secret in clear again.
alter table channels add constraint channels_secret_sealed
  check (secret ~ '^v[0-9]+\.') not valid;
alter table slack_connections add constraint slack_connections_bot_token_sealed
  check (bot_token ~ '^v[0-9]+\.') not valid;
alter table deployment_secrets add constraint deployment_secrets_value_sealed
  check (value ~ '^v[0-9]+\.') not valid;
