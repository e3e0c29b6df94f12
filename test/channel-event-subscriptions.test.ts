import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../runtime/database.ts';
import { migrate } from '../runtime/migrate.ts';
import { createTestDatabase } from './harness.ts';

let sql: Sql;

/** Webhook channels as migration 062 left them: subscriptions in `events` (name -> since), their order in `event_order`. */
async function seedBeforeOrderedSubscriptions(): Promise<void> {
  await sql`insert into workspaces (id, name) values ('org_one', 'One')`;
  const channel = (id: string, events: Record<string, string>, order: string[]) => sql`
    insert into channels (id, workspace_id, kind, label, url, events, event_order)
    values (${id}, 'org_one', 'webhook', ${id}, 'https://example.com/hook', ${sql.json(events)}, ${sql.array(order)})`;
  // jsonb lists these keys shortest first: wallet.low before keyword.resumed, the reverse of the order given.
  await channel('dest_ordered', { 'keyword.resumed': '2026-01-02T03:04:05.000Z', 'wallet.low': '2026-02-03T04:05:06.000Z' }, ['keyword.resumed', 'wallet.low']);
  await channel('dest_none', {}, []);
  // A name the order missed follows the ordered ones.
  await channel('dest_partial', { 'wallet.paused': '2026-03-01T00:00:00.000Z', 'keyword.capped': '2026-03-02T00:00:00.000Z' }, ['keyword.capped']);
}

beforeAll(async () => {
  sql = connect(await createTestDatabase({ empty: true }), { max: 2 });
  await migrate(sql, { through: '063_role_addresses.sql' });
  await seedBeforeOrderedSubscriptions();
  await migrate(sql);
});
afterAll(() => sql?.end());

describe('webhook channel subscriptions as one ordered list (migration 064)', () => {
  it('keeps every subscription, its time and the order it was given in, and drops the second column', async () => {
    const rows = await sql<{ id: string; events: unknown }[]>`select id, events from channels order by id`;
    expect(rows.map((row) => ({ ...row }))).toEqual([
      { id: 'dest_none', events: [] },
      {
        id: 'dest_ordered',
        events: [
          { name: 'keyword.resumed', since: '2026-01-02T03:04:05.000Z' },
          { name: 'wallet.low', since: '2026-02-03T04:05:06.000Z' },
        ],
      },
      {
        id: 'dest_partial',
        events: [
          { name: 'keyword.capped', since: '2026-03-02T00:00:00.000Z' },
          { name: 'wallet.paused', since: '2026-03-01T00:00:00.000Z' },
        ],
      },
    ]);
    const columns = await sql`select column_name from information_schema.columns where table_name = 'channels' and column_name = 'event_order'`;
    expect(columns).toEqual([]);
    await sql`insert into channels (id, workspace_id, kind, label) values ('dest_new', 'org_one', 'telegram', 'Chat')`;
    expect((await sql`select events from channels where id = 'dest_new'`)[0].events).toEqual([]);
  });
});
