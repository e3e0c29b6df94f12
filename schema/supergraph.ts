import { printSubgraphSchema } from '@apollo/subgraph';
import { composeServices, compositionHasErrors } from '@theguild/federation-composition';
import { parse } from 'graphql';
import { subgraphNames } from '../runtime/config.ts';
import { subgraphSchemas } from '../subgraphs/index.ts';

/**
 * Placeholder address of a subgraph in the committed supergraph; the gateway
 * replaces it with where the subgraph really runs.
 */
export const subgraphPlaceholderUrl = (name: string) => `http://${name}.earshot.internal/graphql`;

/** Composes the four subgraphs' schemas into the supergraph SDL the gateway serves. */
export async function composeSupergraph(): Promise<string> {
  const services = [];
  for (const name of subgraphNames) {
    const sdl = printSubgraphSchema(await subgraphSchemas[name]());
    services.push({ name, typeDefs: parse(sdl), url: subgraphPlaceholderUrl(name) });
  }
  const result = composeServices(services);
  if (compositionHasErrors(result)) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((e) => e.message).join('\n')}`);
  }
  return result.supergraphSdl + '\n';
}
