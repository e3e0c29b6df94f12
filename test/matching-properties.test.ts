import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchPlatforms } from '../vocabulary/normalized-post.ts';
import { authorIdentities, canonicalAuthor } from '../subgraphs/keywords/matching/author-identity.ts';
import type { KeywordMatchRules } from '../subgraphs/keywords/matching/keyword-rules.ts';
import { createMatcher } from '../subgraphs/keywords/matching/matcher.ts';
import { createReferenceMatcher } from '../subgraphs/keywords/matching/reference-matcher.ts';
import { author, filters, keyword, labels, post } from './matching-fixtures.ts';

// Letters whose upper case keeps the length, so a changed case is the same word to a case-insensitive rule.
const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzéüñø');
const word = fc.array(letter, { minLength: 2, maxLength: 8 }).map((letters) => letters.join(''));
const separator = fc.constantFrom(' ', '  ', '\n', ', ', '. ', ' (', ') ', '! ', ' - ', '\t');
const filler = fc.array(word, { maxLength: 12 });

/** A random case for each letter. */
const recased = (text: string) => fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).map((upper) => [...text].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join(''));

/** An excluded entry and a word of the post it must catch: `core`, `core*`, `*core` or `*core*`. */
const excludedEntry = fc
  .record({ core: word, wildcard: fc.constantFrom('none', 'prefix', 'suffix', 'infix'), before: word, after: word })
  .map(({ core, wildcard, before, after }) => ({
    entry: { none: core, prefix: `${core}*`, suffix: `*${core}`, infix: `*${core}*` }[wildcard],
    written: { none: core, prefix: core + after, suffix: before + core, infix: before + core + after }[wildcard],
  }));

function textOf(parts: string[], separators: string[]): string {
  return parts.map((part, index) => part + (separators[index] ?? ' ')).join('');
}

describe('excluded terms always exclude (spec 2.1.3)', () => {
  const scenario = fc
    .record({
      term: fc.constantFrom('Zorblax', 'vector database', 'node.js', 'C++', 'Café'),
      caseSensitive: fc.boolean(),
      exactPhrase: fc.boolean(),
      excluded: excludedEntry,
      otherExcluded: fc.array(word, { maxLength: 3 }),
      before: filler,
      after: filler,
      separators: fc.array(separator, { minLength: 30, maxLength: 30 }),
      atWorkspace: fc.boolean(),
    })
    .chain((given) =>
      (given.caseSensitive ? fc.constant(given.excluded.written) : recased(given.excluded.written)).map((written) => ({ ...given, written })),
    );

  it('drops every post that holds an excluded term, in the keyword or the workspace filters', () => {
    fc.assert(
      fc.property(scenario, (given) => {
        const text = textOf([...given.before, given.term, ...given.after.slice(0, 3), given.written, ...given.after.slice(3)], given.separators);
        const entries = [...given.otherExcluded, given.excluded.entry];
        const base = { caseSensitive: given.caseSensitive, exactPhrase: given.exactPhrase };
        const rules = keyword('kw', given.term, given.atWorkspace ? base : { ...base, excludedTerms: entries });
        const workspaceFilters = new Map(given.atWorkspace ? [['org_a', filters({ excludedTerms: entries })]] : []);
        // The keyword takes the post once the exclusion is gone: the exclusion, not the term, drops it.
        expect(labels(createMatcher([keyword('kw', given.term, base)], new Map()).match(post(text)))).toEqual(['kw']);
        expect(createMatcher([rules], workspaceFilters).match(post(text))).toEqual([]);
        expect(createReferenceMatcher([rules], workspaceFilters).match(post(text))).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});

describe('the engine agrees with the keyword-by-keyword reference', () => {
  const vocabulary = [
    'open', 'Open', 'source', 'sources', 'open-source', 'OpenSource', 'rust', 'Rust', 'RUST', 'rustic', 'colour', 'colors',
    'palette', 'c++', 'C++20', '.NET', 'asp.net', 'node.js', 'Node.jsx', 'café', 'cafe\u0301', '東京に', 'company', 'companies',
    'api', 'APIs', 'job', 'jobs', 'hiring', 'the', 'a', 'of', 'search', '😀', 'rust😀', '𝒜pp', '𠀀東京', 'e\u0301', '\u00a0', '\u3000',
  ];
  const terms = [
    'open source', 'Rust', 'colour palette', 'C++', '.NET', 'node.js', 'café', '東京', 'company search', 'API', 'open', 'source of the open', 'jobs api',
    '😀', '𝒜pp store', '𠀀東',
  ];
  const entries = ['job', 'hir*', '*ing', '*pen*', 'the open', 'API', 'rust*', '*s', 'open sour*', '*pi jobs', 'c++ api'];

  const keywordRules = fc.record({
    term: fc.constantFrom(...terms),
    caseSensitive: fc.boolean(),
    exactPhrase: fc.boolean(),
    requiredTerms: fc.subarray(entries.filter((entry) => !entry.includes('*')), { maxLength: 2 }),
    requiredMode: fc.constantFrom('any' as const, 'all' as const),
    excludedTerms: fc.subarray(entries, { maxLength: 2 }),
    workspaceId: fc.constantFrom('org_a', 'org_b'),
  });
  const postText = fc
    .record({ words: fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 14 }), separators: fc.array(separator, { minLength: 14, maxLength: 14 }) })
    .map(({ words, separators }) => textOf(words, separators));

  it('finds the same matches for any keywords and posts', () => {
    fc.assert(
      fc.property(fc.array(keywordRules, { minLength: 1, maxLength: 8 }), fc.array(postText, { minLength: 1, maxLength: 5 }), fc.subarray(entries), (rules, texts, workspaceExcluded) => {
        const keywords = rules.map((given, index) => keyword(`kw${index}`, given.term, given));
        const workspaceFilters = new Map([['org_b', filters({ excludedTerms: workspaceExcluded })]]);
        const engine = createMatcher(keywords, workspaceFilters);
        const reference = createReferenceMatcher(keywords, workspaceFilters);
        for (const text of texts) expect(labels(engine.match(post(text)))).toEqual(labels(reference.match(post(text))));
      }),
      { numRuns: 300 },
    );
  });

  type KeywordChange = { upsert: number; rules: Partial<KeywordMatchRules> & { term: string } } | { remove: number };

  /** An engine given `changes` one by one, and the keywords live after them. */
  function changedInPlace(changes: readonly KeywordChange[]) {
    const engine = createMatcher([], new Map());
    const live = new Map<string, KeywordMatchRules>();
    for (const step of changes) {
      if ('upsert' in step) {
        const rules = keyword(`kw${step.upsert}`, step.rules.term, step.rules);
        live.set(rules.keywordId, rules);
        engine.upsertKeyword(rules);
      } else {
        live.delete(`kw${step.remove}`);
        engine.removeKeyword(`kw${step.remove}`);
      }
    }
    return { engine, live };
  }

  it('still agrees after keywords are added, changed and removed in place', () => {
    const change = fc.oneof(
      fc.record({ upsert: fc.integer({ min: 0, max: 9 }), rules: keywordRules }),
      fc.record({ remove: fc.integer({ min: 0, max: 9 }) }),
    );
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 30 }), fc.array(postText, { minLength: 1, maxLength: 4 }), (changes, texts) => {
        const { engine, live } = changedInPlace(changes);
        expect(engine.keywordCount).toBe(live.size);
        const reference = createReferenceMatcher(live.values(), new Map());
        for (const text of texts) expect(labels(engine.match(post(text)))).toEqual(labels(reference.match(post(text))));
      }),
      { numRuns: 300 },
    );
  });

  // The rules the engine answers without reading the post's text (platforms, authors, subreddits, gate words of
  // required and excluded terms), on keywords sharing three terms: several rule terms each, some without a word to
  // gate them, changed in place.
  const screenedRules = fc.record({
    term: fc.constantFrom('open source', 'Rust', 'API'),
    caseSensitive: fc.boolean(),
    platforms: fc.option(fc.subarray([...searchPlatforms], { maxLength: 3 }), { nil: null }),
    // '東京' and '😀' have no word to gate them.
    requiredTerms: fc.subarray(['job', 'API', 'the open', 'c++', '東京', '😀'], { maxLength: 6 }),
    requiredMode: fc.constantFrom('any' as const, 'all' as const),
    excludedTerms: fc.subarray([...entries, 'c++'], { maxLength: 5 }),
    excludedAuthors: fc.subarray(['name:poster', 'reddit:someone'], { maxLength: 1 }),
    subreddits: fc.record({ only: fc.subarray(['rust'], { maxLength: 1 }), excluded: fc.subarray(['webdev'], { maxLength: 1 }) }),
    workspaceId: fc.constantFrom('org_a', 'org_b'),
  });
  const screenedPost = fc.record({
    text: postText,
    platform: fc.constantFrom('hackernews' as const, 'reddit' as const, 'bluesky' as const, 'appstore' as const),
    subreddit: fc.constantFrom(null, 'rust', 'webdev'),
    author: fc.constantFrom('someone', 'poster'),
  });

  it('agrees on keywords with platforms, authors, subreddits and many rule terms, as they change', () => {
    const change = fc.oneof(
      { weight: 3, arbitrary: fc.record({ upsert: fc.integer({ min: 0, max: 11 }), rules: screenedRules }) },
      { weight: 1, arbitrary: fc.record({ remove: fc.integer({ min: 0, max: 11 }) }) },
    );
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 30 }), fc.array(screenedPost, { minLength: 1, maxLength: 4 }), (changes, posts) => {
        const { engine, live } = changedInPlace(changes);
        const reference = createReferenceMatcher(live.values(), new Map());
        for (const given of posts) {
          const matchable = post(given.text, {
            platform: given.platform,
            subreddit: given.platform === 'reddit' ? given.subreddit : null,
            author: author({ name: given.author, handle: given.author, platformId: given.author }),
          });
          expect(labels(engine.match(matchable))).toEqual(labels(reference.match(matchable)));
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('canonical author forms', () => {
  const typed = fc.oneof(
    fc.string(),
    fc.constantFrom('@', 'u/', '/u/', 'did:plc:', 'x:', 'name:', 'https://x.com/', 'https://bsky.app/profile/', 'github.com/', 'Reddit: ').chain((prefix) =>
      fc.string().map((rest) => prefix + rest),
    ),
  );

  it('maps a canonical form to itself', () => {
    fc.assert(
      fc.property(typed, (input) => {
        const canonical = canonicalAuthor(input);
        if (canonical !== null) expect(canonicalAuthor(canonical)).toBe(canonical);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives a post author every form a user may type for them', () => {
    const handle = fc.stringMatching(/^[A-Za-z0-9_]{1,15}$/u);
    // A display name, not text that reads as a link, a handle or an account.
    const plainName = fc.string({ minLength: 1 }).filter((text) => !/[:@/]|\.bsky\.social\s*$/iu.test(text));
    fc.assert(
      fc.property(fc.constantFrom(...searchPlatforms), handle, plainName, (platform, name, displayName) => {
        const identities = authorIdentities(platform, author({ handle: name, platformId: `id-${name}`, name: displayName }));
        for (const typedForm of [`@${name}`, `${platform}:${name}`, name, displayName]) {
          const canonical = canonicalAuthor(typedForm);
          if (canonical !== null) expect(identities).toContain(canonical);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
