/**
 * An `app.bsky.feed.post` record as a NormalizedPost, shared by the search
 * connector (records inside AppView post views) and the Jetstream client
 * (bare records from the firehose).
 */
import { z } from 'zod';
import type { NormalizedAuthor, NormalizedPost } from '../../vocabulary/normalized-post.ts';
import { linksInText, uniqueLinks } from './post-text.ts';

/** `com.atproto.repo.strongRef`: only the `uri` is read. */
const strongRef = z.object({ uri: z.string(), cid: z.string().optional() });
const external = z.object({ uri: z.string() });

/**
 * The lexicon's `app.bsky.feed.post` record: the fields Earshot reads.
 * Optional fields are taken absent or null alike: the lexicon leaves them
 * out, but JSON written by other tools often sends null.
 */
export const blueskyPostRecord = z.object({
  $type: z.literal('app.bsky.feed.post').optional(),
  text: z.string(),
  /** Set by the writing client, so not always a valid date. */
  createdAt: z.string(),
  langs: z.array(z.string()).nullish(),
  facets: z.array(z.object({
    $type: z.string().optional(),
    index: z.object({ byteStart: z.number(), byteEnd: z.number() }),
    features: z.array(z.object({ $type: z.string(), uri: z.string().optional() })),
  })).nullish(),
  reply: z.object({ root: strongRef, parent: strongRef }).nullish(),
  /** A link card (`app.bsky.embed.external`), alone or beside a quoted post (`recordWithMedia`). */
  embed: z.object({
    $type: z.string(),
    external: external.nullish(),
    media: z.object({ $type: z.string(), external: external.nullish() }).nullish(),
  }).nullish(),
});

/** `app.bsky.actor.defs#profileViewBasic`: the fields Earshot reads. */
export const blueskyProfileBasic = z.object({
  did: z.string(),
  handle: z.string(),
  displayName: z.string().nullish(),
  avatar: z.string().nullish(),
});

export type BlueskyPostRecord = z.infer<typeof blueskyPostRecord>;
export type BlueskyProfileBasic = z.infer<typeof blueskyProfileBasic>;

/**
 * The bsky.app address of a post. bsky.app accepts a DID where the handle is
 * unknown or broken (`handle.invalid`), so every post has an address.
 */
export function blueskyPostUrl(atUri: string, handle?: string): string {
  const [, did, , rkey] = atUri.replace(/^at:\/\//, '').match(/^([^/]+)\/([^/]+)\/([^/]+)$/) ?? [];
  const profile = handle && handle !== 'handle.invalid' ? handle : did;
  return `https://bsky.app/profile/${profile}/post/${rkey}`;
}

export function blueskyAuthor(profile: BlueskyProfileBasic): NormalizedAuthor {
  const handle = profile.handle === 'handle.invalid' ? profile.did : profile.handle;
  return {
    platformId: profile.did,
    name: profile.displayName?.trim() || handle,
    handle,
    url: `https://bsky.app/profile/${handle}`,
    avatarUrl: profile.avatar ?? null,
    followers: null,
    // A handle on a domain of its own is proven through that domain's DNS or
    // web server: as good as a verified link to the site. Where only the DID
    // is known (the live stream), the links are unknown, not absent.
    ...(handle === profile.did ? {} : { links: handle.endsWith('.bsky.social') ? [] : [`https://${handle}`] }),
  };
}

function externalLink(embed: BlueskyPostRecord['embed']): string | null {
  return embed?.external?.uri ?? embed?.media?.external?.uri ?? null;
}

/**
 * Links come from the link facets, because the visible text shortens long
 * URLs ("example.com/very-lo…"); text is only searched when a client wrote
 * no facets. A link card's address follows them.
 */
function recordLinks(record: BlueskyPostRecord): string[] {
  const facets = [...(record.facets ?? [])].sort((a, b) => a.index.byteStart - b.index.byteStart);
  const facetLinks = facets.flatMap((facet) => facet.features.flatMap((feature) => (feature.$type === 'app.bsky.richtext.facet#link' && feature.uri ? [feature.uri] : [])));
  return uniqueLinks(facetLinks.length ? facetLinks : linksInText(record.text), [externalLink(record.embed)]);
}

export interface RecordContext {
  /** When the network saw the post (AppView `indexedAt`, Jetstream `time_us`): the date of a post whose own is garbage. */
  receivedAt: Date;
  /** The address of a post by at:// URI, where the caller knows its author's handle. */
  urlOf?: (atUri: string) => string | undefined;
}

export function blueskyRecordToPost(atUri: string, record: BlueskyPostRecord, author: NormalizedAuthor, context: RecordContext): NormalizedPost {
  const parent = record.reply?.parent.uri;
  const createdAt = new Date(record.createdAt);
  return {
    platform: 'bluesky',
    externalId: atUri,
    url: blueskyPostUrl(atUri, author.handle),
    text: record.text.trim(),
    publishedAt: Number.isNaN(createdAt.getTime()) ? context.receivedAt : createdAt,
    replyTo: parent ? context.urlOf?.(parent) ?? blueskyPostUrl(parent) : null,
    links: recordLinks(record),
    author,
    language: record.langs?.[0] ?? null,
  };
}
