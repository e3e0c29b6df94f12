import { readdir } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../runtime/database.ts';
import { migrate } from '../runtime/migrate.ts';
import { createTestDatabase } from './harness.ts';

const pools: Sql[] = [];
afterAll(() => Promise.all(pools.map((pool) => pool.end())));

describe('migrate', () => {
  it('applies every migration exactly once when two processes migrate a fresh database at the same time', async () => {
    const url = await createTestDatabase({ empty: true });
    const [first, second] = [connect(url, { max: 1 }), connect(url, { max: 1 })];
    pools.push(first, second);
    const migrations = (await readdir(new URL('../schema/', import.meta.url))).filter((name) => /^\d{3}_[\w-]+\.sql$/.test(name)).sort();
    expect(migrations.length).toBeGreaterThan(0);

    const ran = await Promise.all([migrate(first), migrate(second)]);
    // One of them did all the work, the other found it done.
    expect(ran.map((files) => files.length).sort((a, b) => a - b)).toEqual([0, migrations.length]);
    expect(ran.flat()).toEqual(migrations);

    const recorded = await first`select version, count(*)::int as times from schema_migrations group by version order by version`;
    expect(recorded.map((row) => ({ ...row }))).toEqual(migrations.map((version) => ({ version, times: 1 })));
    expect(await migrate(first)).toEqual([]);
  });
});
