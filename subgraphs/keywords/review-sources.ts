import { domainError } from '../domain-error.ts';
import type { z } from 'zod';
import type { reviewSourceInput } from './keyword-input.ts';
import type { ReviewSourceRow } from './keyword-store.ts';
import { requireReader, type SourceReaders } from '../source-readers.ts';

type ReviewSourceInput = z.output<typeof reviewSourceInput>;
type StoredSource = Omit<ReviewSourceRow, 'keywordId' | 'connectedAt'>;

const storefrontPlatforms = new Set(['appstore', 'googleplay']);

/**
 * One storefront of a review source: `platform:id:country`, country empty
 * where the platform has none. A storefront is what a look-back is owed for
 * (spec 2.3: a newly added app or country).
 */
export function reviewStorefrontKeys(source: Pick<ReviewSourceRow, 'platform' | 'sourceId' | 'countries'>): string[] {
  return (source.countries.length ? source.countries : ['']).map((country) => `${source.platform}:${source.sourceId}:${country}`);
}

/** The review platform a storefront key (reviewStorefrontKeys) names. */
export const platformOfStorefrontKey = (key: string) => key.slice(0, key.indexOf(':'));

/**
 * Review sources as stored (spec 2.3): a link is resolved to its platform and
 * id, countries default to the link's storefront (else `us`) and apply only
 * to the App Store and Google Play, `language` only to Google Play (default
 * the link's `hl`, else `en`).
 */
export function reviewSourceRows(inputs: ReviewSourceInput[], readers: SourceReaders): StoredSource[] {
  const rows = new Map<string, StoredSource>();
  for (const [index, input] of inputs.entries()) {
    const fail = (field: string, message: string) =>
      domainError('validation_error', `reviewSources.${index}.${field}: ${message}`, { field: `reviewSources.${index}.${field}` });
    const fromUrl = input.url ? requireReader(readers, 'reviewSourceFromUrl')(input.url) : null;
    if (input.url && !fromUrl) throw fail('url', 'not an App Store, Google Play, Trustpilot or Google Maps link');
    const platform = fromUrl?.platform ?? input.platform!;
    const id = fromUrl?.id ?? input.id!;
    if (input.countries && !storefrontPlatforms.has(platform)) throw fail('countries', `only for appstore and googleplay, not ${platform}`);
    if (input.language && platform !== 'googleplay') throw fail('language', `only for googleplay, not ${platform}`);
    const countries = storefrontPlatforms.has(platform) ? (input.countries ?? [fromUrl?.country ?? 'us']) : [];
    const language = platform === 'googleplay' ? (input.language ?? fromUrl?.language ?? 'en') : null;
    const url = fromUrl?.url ?? requireReader(readers, 'reviewPageUrl')({ platform, id, country: countries[0] ?? null, language });
    rows.set(`${platform}:${id}`, { platform, sourceId: id, url, countries, language });
  }
  return [...rows.values()];
}
