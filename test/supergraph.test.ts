import { readFile } from 'node:fs/promises';
import { printSubgraphSchema } from '@apollo/subgraph';
import { describe, expect, it } from 'vitest';
import { subgraphNames } from '../runtime/config.ts';
import { composeSupergraph } from '../schema/supergraph.ts';
import { subgraphSchemas } from '../subgraphs/index.ts';

describe('supergraph', () => {
  it('is committed as a fresh composition would write it (run `npm run compose` when this fails)', async () => {
    const committed = await readFile(new URL('../schema/supergraph.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(await composeSupergraph());
  });

  it.each(subgraphNames)('keeps the %s subgraph SDL as snapshotted', async (name) => {
    expect(printSubgraphSchema(await subgraphSchemas[name]())).toMatchSnapshot();
  });
});
