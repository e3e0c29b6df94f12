/**
 * TikTok posts through a search provider: TikTok offers no open search API,
 * so this speaks Earshot's provider contract (provider-search.ts), not
 * TikTok's own API.
 *
 * Environment:
 * - `EARSHOT_UPSTREAM_TIKTOK`: the provider's base address (required).
 * - `EARSHOT_TIKTOK_API_KEY`: bearer token for the provider (optional).
 */
import type { ConnectorOptions, SearchConnector } from './connector.ts';
import { createProviderSearchConnector } from './provider-search.ts';

export function createTikTokConnector(env: NodeJS.ProcessEnv = process.env, options: ConnectorOptions = {}): SearchConnector {
  return createProviderSearchConnector('tiktok', env, options);
}
