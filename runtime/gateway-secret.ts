import type { EarshotConfig } from './config.ts';
import type { Queryable } from './database.ts';
import { randomBase62 } from './ids.ts';

/**
 * The secret the gateway signs subgraph requests with. `EARSHOT_GATEWAY_SECRET`
 * wins; otherwise the first process to start stores a random one in the
 * database, where every other process of the deployment reads the same.
 */
export async function resolveGatewaySecret(config: EarshotConfig, sql: Queryable): Promise<string> {
  if (config.gatewaySecret) return config.gatewaySecret;
  const [row] = await sql<{ value: string }[]>`
    /* ensureGatewaySecret */
    with created as (
      insert into deployment_secrets (name, value) values ('gateway', ${randomBase62(32)})
      on conflict (name) do nothing returning value
    )
    select value from created
    union all
    select value from deployment_secrets where name = 'gateway'
    limit 1`;
  return row.value;
}
