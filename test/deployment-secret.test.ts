import { afterAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../runtime/database.ts';
import { deploymentSecret } from '../runtime/gateway-secret.ts';
import { createTestDatabase, testSecrets } from './harness.ts';

const pools: Sql[] = [];
afterAll(() => Promise.all(pools.map((pool) => pool.end())));

describe('deployment secrets', () => {
  it('gives two processes asking first at the same moment the same secret', async () => {
    const url = await createTestDatabase();
    const [first, second] = [connect(url, { max: 1 }), connect(url, { max: 1 })];
    pools.push(first, second);
    let secondAsk: Promise<string> | undefined;
    const firstSecret = await first.begin(async (tx) => {
      const created = await deploymentSecret(tx, testSecrets, 'race');
      // The second's insert now waits on this uncommitted row.
      secondAsk = deploymentSecret(second, testSecrets, 'race');
      await new Promise((resolve) => setTimeout(resolve, 300));
      return created;
    });
    expect(firstSecret).toMatch(/^[0-9A-Za-z]{32,}$/);
    await expect(secondAsk).resolves.toBe(firstSecret);
    expect(await deploymentSecret(second, testSecrets, 'race')).toBe(firstSecret);
  });
});
