import type { EarshotConfig } from './config.ts';
import { insertedOrExisting, type Queryable } from './database.ts';
import { randomBase62 } from './ids.ts';

/**
 * A random secret every process of the deployment shares, kept in the
 * database under `name`: the first process to ask stores one, every other
 * reads the same.
 */
export async function deploymentSecret(sql: Queryable, name: string): Promise<string> {
  const row = await insertedOrExisting(() => sql<{ value: string }[]>`
    /* ensureDeploymentSecret */
    with created as (
      insert into deployment_secrets (name, value) values (${name}, ${randomBase62(32)})
      on conflict (name) do nothing returning value
    )
    select value from created
    union all
    select value from deployment_secrets where name = ${name}
    limit 1`);
  return row.value;
}

/**
 * The secret the gateway signs subgraph requests with. `EARSHOT_GATEWAY_SECRET`
 * wins; otherwise the deployment's stored one.
 */
export async function resolveGatewaySecret(config: EarshotConfig, sql: Queryable): Promise<string> {
  return config.gatewaySecret ?? deploymentSecret(sql, 'gateway');
}
