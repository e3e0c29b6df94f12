import type { NormalizedAuthor } from '../../vocabulary/normalized-post.ts';

/**
 * Profile addresses as comparison keys, so that two ways of writing one
 * address meet (spec 2.11.3: accounts sharing a verified link are one
 * person). A key is the host and path, lower case: the scheme, a `www.`,
 * `m.` or `mobile.` prefix, a trailing slash, the fragment and tracking
 * parameters dropped; `twitter.com` read as `x.com` and Reddit's `/u/` as
 * `/user/`. Handles are case-insensitive on every platform Earshot reads,
 * so lower-casing the path costs nothing there.
 */

const hostAliases: Record<string, string> = { 'twitter.com': 'x.com' };

/** Hosts shared by everyone: a link to one of them without a path names nobody. */
const sharedHosts = new Set([
  'x.com', 'github.com', 'gitlab.com', 'linkedin.com', 'youtube.com', 'reddit.com', 'dev.to', 'bsky.app', 'instagram.com',
  'tiktok.com', 'facebook.com', 'medium.com', 'substack.com', 'stackoverflow.com', 'news.ycombinator.com', 'linktr.ee',
  'mastodon.social', 'threads.net', 'discord.gg', 'discord.com', 'twitch.tv',
]);

const trackingParameter = /^(utm_.*|ref|ref_src|s|t|si|fbclid|gclid)$/;

export function profileLinkKey(address: string): string | null {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(address.trim()) ? address.trim() : `https://${address.trim()}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const bareHost = url.hostname.toLowerCase().replace(/\.$/, '').replace(/^(www|m|mobile)\./, '');
  const host = hostAliases[bareHost] ?? bareHost;
  if (!host.includes('.')) return null;
  let path = url.pathname.replace(/\/+$/, '').toLowerCase();
  if (host === 'reddit.com') path = path.replace(/^\/u\//, '/user/');
  const kept = [...url.searchParams].filter(([name]) => !trackingParameter.test(name.toLowerCase())).sort(([a], [b]) => a.localeCompare(b));
  const query = kept.length ? `?${new URLSearchParams(kept).toString().toLowerCase()}` : '';
  if (!path && !query && sharedHosts.has(host)) return null;
  return host + path + query;
}

/** What storing an author writes about its profile: its own key, and its links (null when the platform did not say). */
export function authorProfile(author: NormalizedAuthor): { profileKey: string | null; linkKeys: string[] | null; links: string[] | null } {
  const profileKey = profileLinkKey(author.url);
  if (!author.links) return { profileKey, linkKeys: null, links: null };
  const linkKeys = [...new Set(author.links.flatMap((link) => profileLinkKey(link) ?? []))].filter((key) => key !== profileKey);
  return { profileKey, linkKeys, links: [...new Set(author.links)] };
}
