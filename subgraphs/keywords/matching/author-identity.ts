import type { NormalizedAuthor, Platform } from '../../../vocabulary/normalized-post.ts';
import { collapseWhitespace, normalizeText } from './unicode-words.ts';

/**
 * Excluded authors (spec 2.1.3, 2.11 item 5) are typed as profile or post
 * links, @handles, u/names, DIDs or display names. Each becomes one canonical
 * string, and a post's author is expanded into every canonical string it
 * answers to, so that excluding an author is a set lookup:
 *   `<platform>:<account>`  an account on one platform (handle or stable id)
 *   `@<handle>`             that handle on any platform
 *   `did:…`                 an AT Protocol identity, whatever its handle
 *   `name:<display name>`   lower case, whitespace collapsed
 */

type Canonical = string | null;

const PLATFORM_PREFIX =
  /^(bluesky|hackernews|github|stackoverflow|devto|reddit|x|youtube|news|linkedin|tiktok|instagram|appstore|googleplay|trustpilot|googlemaps|rss):(.+)$/iu;
const DID = /^did:[a-z0-9]+:\S+$/iu;
const AT_HANDLE = /^@([\p{L}\p{N}_.-]+)$/u;
const REDDIT_NAME = /^\/?u\/([A-Za-z0-9_-]+)\/?$/u;
const URL_WITHOUT_SCHEME = /^(?:[a-z0-9-]+\.)+[a-z]{2,}\//iu;
const BLUESKY_DEFAULT_DOMAIN = '.bsky.social';

/** An account name holds no whitespace; anything else is not one. */
function account(platform: string, id: string): Canonical {
  const name = id.trim().toLowerCase();
  return name && !/\s/u.test(name) ? `${platform}:${name}` : null;
}

function displayName(text: string): Canonical {
  const name = collapseWhitespace(normalizeText(text)).trim().toLowerCase();
  return name ? `name:${name}` : null;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function pathSegments(url: URL): string[] {
  return url.pathname.split('/').filter(Boolean).map(decodeSegment);
}

function blueskyActor(actor: string | undefined): Canonical {
  if (!actor) return null;
  return DID.test(actor) ? actor.toLowerCase() : account('bluesky', actor);
}

// First path segments that are site sections, not account names.
const X_SECTIONS = new Set(['i', 'home', 'search', 'explore', 'hashtag', 'intent', 'share', 'settings', 'messages', 'notifications', 'compose', 'login', 'signup', 'tos', 'privacy']);
const GITHUB_SECTIONS = new Set(['about', 'apps', 'collections', 'enterprise', 'events', 'explore', 'features', 'issues', 'login', 'marketplace', 'new', 'notifications', 'orgs', 'organizations', 'pricing', 'pulls', 'search', 'settings', 'sponsors', 'topics', 'trending']);
const DEVTO_SECTIONS = new Set(['t', 'search', 'top', 'latest', 'settings', 'enter', 'new', 'videos', 'pod', 'listings', 'about', 'tags', 'dashboard']);
const INSTAGRAM_SECTIONS = new Set(['p', 'reel', 'reels', 'explore', 'tv', 'accounts', 'direct', 'about', 'developer', 'legal']);
const X_HANDLE = /^[A-Za-z0-9_]{1,15}$/u;

/** Reads the author an address names; null for a known site's address that names none (an HN item, a repository). */
function authorOfUrl(url: URL): Canonical {
  const host = url.hostname.toLowerCase().replace(/^(www|m|mobile|old|new|np)\./u, '');
  const segments = pathSegments(url);
  const [first, second] = segments;
  switch (host) {
    case 'bsky.app':
      return first === 'profile' ? blueskyActor(second) : null;
    case 'x.com':
    case 'twitter.com':
      return first && !X_SECTIONS.has(first.toLowerCase()) && X_HANDLE.test(first) ? account('x', first) : null;
    case 'reddit.com':
      return (first === 'user' || first === 'u') && second ? account('reddit', second) : null;
    case 'github.com':
      if (first === 'sponsors' && second) return account('github', second);
      return segments.length === 1 && !GITHUB_SECTIONS.has(first.toLowerCase()) ? account('github', first) : null;
    case 'news.ycombinator.com': {
      const id = url.searchParams.get('id');
      return first === 'user' && id ? account('hackernews', id) : null;
    }
    case 'dev.to':
      return first && !DEVTO_SECTIONS.has(first.toLowerCase()) ? account('devto', first) : null;
    case 'stackoverflow.com':
      return (first === 'users' || first === 'u') && second && /^\d+$/u.test(second) ? account('stackoverflow', second) : null;
    case 'youtube.com':
      if (first?.startsWith('@')) return account('youtube', first.slice(1));
      return (first === 'channel' || first === 'c' || first === 'user') && second ? account('youtube', second) : null;
    case 'linkedin.com':
      if ((first === 'in' || first === 'company') && second) return account('linkedin', second);
      // A post address starts with its author's slug: /posts/<slug>_<words>-activity-<id>
      return first === 'posts' && second?.includes('_') ? account('linkedin', second.slice(0, second.indexOf('_'))) : null;
    case 'tiktok.com':
      return first?.startsWith('@') ? account('tiktok', first.slice(1)) : null;
    case 'instagram.com':
      if (first === 'stories' && second) return account('instagram', second);
      return first && !INSTAGRAM_SECTIONS.has(first.toLowerCase()) ? account('instagram', first) : null;
    default:
      return null;
  }
}

function parseUrl(text: string): URL | null {
  const withScheme = /^https?:\/\//iu.test(text) ? text : URL_WITHOUT_SCHEME.test(text) ? `https://${text}` : null;
  if (!withScheme) return null;
  try {
    return new URL(withScheme);
  } catch {
    return null;
  }
}

/**
 * The canonical form of what a user typed as an excluded author; null when it
 * cannot name anyone (empty, or a link that names no author). Canonical forms
 * map to themselves, so a list read back and sent again stays the same.
 */
export function canonicalAuthor(input: string): Canonical {
  const text = input.trim();
  if (!text) return null;
  const url = parseUrl(text);
  if (url) return authorOfUrl(url);
  if (DID.test(text)) return text.toLowerCase();
  const handle = AT_HANDLE.exec(text);
  if (handle) return `@${handle[1].toLowerCase()}`;
  const redditName = REDDIT_NAME.exec(text);
  if (redditName) return account('reddit', redditName[1]);
  const prefixed = PLATFORM_PREFIX.exec(text);
  if (prefixed) {
    const id = prefixed[2].trim();
    return DID.test(id) ? id.toLowerCase() : account(prefixed[1].toLowerCase(), id);
  }
  if (/^name:/iu.test(text)) return displayName(text.slice(5));
  if (/^\S+\.bsky\.social$/iu.test(text)) return account('bluesky', text);
  return displayName(text);
}

/**
 * An excluded author as a person would type it: a display name without the
 * `name:` its canonical form carries, when typing it bare gives the same
 * canonical form back (it could be read as a link or handle otherwise).
 */
export function typedAuthor(canonical: string): string {
  const name = canonical.startsWith('name:') ? canonical.slice('name:'.length) : null;
  return name !== null && canonicalAuthor(name) === canonical ? name : canonical;
}

function bareHandle(handle: string): string {
  return handle.trim().replace(/^(@|\/?u\/)/u, '').toLowerCase();
}

/** Every canonical form (see canonicalAuthor) that a post's author answers to. */
export function authorIdentities(platform: Platform, author: NormalizedAuthor): string[] {
  const identities = new Set<string>();
  const add = (identity: Canonical) => identity && identities.add(identity);
  const handle = bareHandle(author.handle);
  if (handle) {
    add(account(platform, handle));
    identities.add(`@${handle}`);
    // People type display names and bare handles alike into one box.
    identities.add(`name:${handle}`);
    if (platform === 'bluesky' && handle.endsWith(BLUESKY_DEFAULT_DOMAIN)) identities.add(`@${handle.slice(0, -BLUESKY_DEFAULT_DOMAIN.length)}`);
  }
  const platformId = author.platformId.trim();
  if (platformId) add(DID.test(platformId) ? platformId.toLowerCase() : account(platform, platformId));
  if (author.url) add(canonicalAuthor(author.url));
  if (author.name) add(displayName(author.name));
  return [...identities];
}

