import { describe, expect, it } from 'vitest';
import { authorIdentities, canonicalAuthor } from '../subgraphs/keywords/matching/author-identity.ts';
import { author } from './matching-fixtures.ts';

describe('canonicalAuthor (spec 2.1.3 excludedAuthors)', () => {
  it.each([
    ['https://bsky.app/profile/Alice.bsky.social', 'bluesky:alice.bsky.social'],
    ['https://bsky.app/profile/alice.bsky.social/post/3kxyz', 'bluesky:alice.bsky.social'],
    ['https://bsky.app/profile/did:plc:Abc123', 'did:plc:abc123'],
    ['bsky.app/profile/alice.bsky.social', 'bluesky:alice.bsky.social'],
    ['alice.bsky.social', 'bluesky:alice.bsky.social'],
    ['https://x.com/Jack', 'x:jack'],
    ['https://twitter.com/jack/status/20', 'x:jack'],
    ['https://mobile.twitter.com/jack', 'x:jack'],
    ['https://x.com/search?q=rust', null],
    ['https://www.reddit.com/user/Spez', 'reddit:spez'],
    ['https://old.reddit.com/u/spez/', 'reddit:spez'],
    ['https://www.reddit.com/r/rust/comments/abc/title/', null],
    ['/u/spez', 'reddit:spez'],
    ['u/Spez', 'reddit:spez'],
    ['https://github.com/Torvalds', 'github:torvalds'],
    ['https://github.com/torvalds/linux/issues/1', null],
    ['https://github.com/sponsors/sindresorhus', 'github:sindresorhus'],
    ['https://news.ycombinator.com/user?id=pg', 'hackernews:pg'],
    ['https://news.ycombinator.com/item?id=1', null],
    ['https://dev.to/ben', 'devto:ben'],
    ['https://dev.to/ben/my-post-1abc', 'devto:ben'],
    ['https://stackoverflow.com/users/22656/jon-skeet', 'stackoverflow:22656'],
    ['https://www.youtube.com/@MKBHD', 'youtube:mkbhd'],
    ['https://www.youtube.com/channel/UCBJycsmduvYEL83R_U4JriQ', 'youtube:ucbjycsmduvyel83r_u4jriq'],
    ['https://www.youtube.com/watch?v=abc', null],
    ['https://www.linkedin.com/in/satyanadella/', 'linkedin:satyanadella'],
    ['https://www.linkedin.com/posts/satyanadella_ai-launch-activity-7100000000000000000-abcd', 'linkedin:satyanadella'],
    ['https://www.tiktok.com/@Scout2015/video/6718335390845095173', 'tiktok:scout2015'],
    ['https://www.instagram.com/NatGeo/', 'instagram:natgeo'],
    ['https://www.instagram.com/p/Cabc123/', null],
    ['https://example.com/about', null],
    ['@Alice', '@alice'],
    ['did:plc:Z72I7HDYNMK6R22Z27H6TVUR', 'did:plc:z72i7hdynmk6r22z27h6tvur'],
    ['did:web:example.com', 'did:web:example.com'],
    ['  John   SMITH ', 'name:john smith'],
    ['x:jack', 'x:jack'],
    ['name:John Smith', 'name:john smith'],
    ['', null],
    ['   ', null],
  ])('%s → %s', (input, canonical) => {
    expect(canonicalAuthor(input)).toBe(canonical);
  });
});

describe('authorIdentities', () => {
  it('lists every form a Bluesky author answers to', () => {
    const identities = authorIdentities(
      'bluesky',
      author({ platformId: 'did:plc:abc', handle: 'alice.bsky.social', name: 'Alice  Liddell', url: 'https://bsky.app/profile/alice.bsky.social' }),
    );
    expect(identities.sort()).toEqual(
      ['bluesky:alice.bsky.social', '@alice.bsky.social', '@alice', 'name:alice.bsky.social', 'did:plc:abc', 'name:alice liddell'].sort(),
    );
  });

  it('reads the account from the profile link when the handle is a display form', () => {
    const identities = authorIdentities('stackoverflow', author({ platformId: '22656', handle: 'Jon Skeet', name: 'Jon Skeet', url: 'https://stackoverflow.com/users/22656/jon-skeet' }));
    expect(identities).toContain('stackoverflow:22656');
    expect(identities).toContain(canonicalAuthor('https://stackoverflow.com/users/22656'));
    expect(identities).not.toContain('stackoverflow:jon skeet');
  });

  it('strips u/ and @ from handles', () => {
    expect(authorIdentities('reddit', author({ handle: 'u/Spez' }))).toContain('reddit:spez');
    expect(authorIdentities('x', author({ handle: '@Jack' }))).toContain('x:jack');
  });
});
