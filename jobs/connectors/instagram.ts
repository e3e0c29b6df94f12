/**
 * Instagram posts through a search provider: Instagram offers no open search API,
 * so this speaks Earshot's provider contract (provider-search.ts), not
 * Instagram's own API.
 *
 * Environment:
 * - `EARSHOT_UPSTREAM_INSTAGRAM`: the provider's base address (required).
 * - `EARSHOT_INSTAGRAM_API_KEY`: bearer token for the provider (optional).
 */
import type { ConnectorOptions, SearchConnector } from './connector.ts';
import { createProviderSearchConnector } from './provider-search.ts';

export function createInstagramConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  return createProviderSearchConnector('instagram', env, options);
}
