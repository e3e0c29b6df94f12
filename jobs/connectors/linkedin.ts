/**
 * LinkedIn posts through a search provider: LinkedIn offers no open search API,
 * so this speaks Earshot's provider contract (provider-search.ts), not
 * LinkedIn's own API.
 *
 * Environment:
 * - `EARSHOT_UPSTREAM_LINKEDIN`: the provider's base address (required).
 * - `EARSHOT_LINKEDIN_API_KEY`: bearer token for the provider (optional).
 */
import type { ConnectorOptions, SearchConnector } from './connector.ts';
import { createProviderSearchConnector } from './provider-search.ts';

export function createLinkedInConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  return createProviderSearchConnector('linkedin', env, options);
}
