import type { EarshotConfig } from './config.ts';
import { insertedOrExisting, type Queryable } from './database.ts';
import { randomBase62 } from './ids.ts';
import { type SealedColumn, sealedOwner } from './sealed-secrets.ts';
import type { SecretBox } from './secret-box.ts';

/** Deployment secrets are sealed: a copy of the database alone cannot forge the gateway's or the unsubscribe links' signatures. */
export const deploymentSecretsColumn: SealedColumn = { table: 'deployment_secrets', column: 'value', key: 'name', constraint: 'deployment_secrets_value_sealed' };

/**
 * A random secret every process of the deployment shares, kept sealed in
 * the database under `name`: the first process to ask stores one, every
 * other reads the same.
 */
export async function deploymentSecret(sql: Queryable, box: SecretBox, name: string): Promise<string> {
  const owner = sealedOwner(deploymentSecretsColumn, name);
  const row = await insertedOrExisting(() => sql<{ value: string }[]>`
    /* ensureDeploymentSecret */
    with created as (
      insert into deployment_secrets (name, value) values (${name}, ${box.seal(randomBase62(32), owner)})
      on conflict (name) do nothing returning value
    )
    select value from created
    union all
    select value from deployment_secrets where name = ${name}
    limit 1`);
  return box.open(row.value, owner);
}

/**
 * Refuses a process whose secrets key is not the one the database's
 * secrets were sealed with (another machine's key file, a mistyped
 * `EARSHOT_SECRETS_KEY`) before it serves anything: otherwise it would fail
 * later, one secret at a time. The first process leaves the value it checks.
 */
export async function checkSecretsKey(sql: Queryable, box: SecretBox): Promise<void> {
  await deploymentSecret(sql, box, 'secrets-key-check');
}

/**
 * The secret the gateway signs subgraph requests with. `EARSHOT_GATEWAY_SECRET`
 * wins; otherwise the deployment's stored one.
 */
export async function resolveGatewaySecret(config: EarshotConfig, sql: Queryable, box: SecretBox): Promise<string> {
  return config.gatewaySecret ?? deploymentSecret(sql, box, 'gateway');
}
