import { describe, expect, it } from 'vitest';
import type { KeywordMatchRules } from '../subgraphs/keywords/matching/keyword-rules.ts';
import { createMatcher } from '../subgraphs/keywords/matching/matcher.ts';
import { createReferenceMatcher } from '../subgraphs/keywords/matching/reference-matcher.ts';
import { author, filters, keyword, labels, post } from './matching-fixtures.ts';

describe('matcher changes in place', () => {
  it('renames a keyword: the old term stops matching, the new one starts', () => {
    const matcher = createMatcher([keyword('kw', 'Rust')], new Map());
    matcher.upsertKeyword(keyword('kw', 'Zig'));
    expect(labels(matcher.match(post('Rust and Zig')))).toEqual(['kw']);
    expect(matcher.match(post('only Rust here'))).toEqual([]);
    expect(matcher.keywordCount).toBe(1);
  });

  it('changes the rules of a keyword that keeps its term', () => {
    const matcher = createMatcher([keyword('kw', 'Rust'), keyword('other', 'Rust', { workspaceId: 'org_b' })], new Map());
    matcher.upsertKeyword(keyword('kw', 'Rust', { excludedTerms: ['job'] }));
    expect(labels(matcher.match(post('Rust job')))).toEqual(['other']);
  });

  it('removes a keyword, and removing it again changes nothing', () => {
    const matcher = createMatcher([keyword('a', 'Rust'), keyword('b', 'Rust', { workspaceId: 'org_b' })], new Map());
    matcher.removeKeyword('a');
    matcher.removeKeyword('a');
    expect(labels(matcher.match(post('Rust')))).toEqual(['b']);
    expect(matcher.keywordCount).toBe(1);
  });

  it('keeps every other keyword of a shared term once when one leaves it, from its middle or its end', () => {
    const matcher = createMatcher(['a', 'b', 'c', 'd', 'e'].map((id) => keyword(id, 'Rust', { workspaceId: `org_${id}` })), new Map());
    matcher.removeKeyword('b');
    matcher.upsertKeyword(keyword('e', 'Zig', { workspaceId: 'org_e' }));
    matcher.upsertKeyword(keyword('d', 'Rust', { workspaceId: 'org_d', excludedTerms: ['job'] }));
    expect(labels(matcher.match(post('Rust')))).toEqual(['a', 'c', 'd']);
    expect(labels(matcher.match(post('Rust job')))).toEqual(['a', 'c']);
    matcher.removeKeyword('a');
    matcher.upsertKeyword(keyword('b', 'Rust', { workspaceId: 'org_b' }));
    expect(labels(matcher.match(post('Rust and Zig')))).toEqual(['b', 'c', 'd', 'e']);
  });

  it('sets, replaces and clears workspace filters', () => {
    const matcher = createMatcher([keyword('kw', 'Rust')], new Map([['org_a', filters({ excludedTerms: ['job'] })]]));
    expect(matcher.match(post('Rust job'))).toEqual([]);
    matcher.setWorkspaceFilters('org_a', filters({ excludedTerms: ['crypto'] }));
    expect(labels(matcher.match(post('Rust job')))).toEqual(['kw']);
    expect(matcher.match(post('Rust crypto'))).toEqual([]);
    matcher.setWorkspaceFilters('org_a', null);
    expect(labels(matcher.match(post('Rust crypto')))).toEqual(['kw']);
  });

  it('keeps matching correctly through heavy churn, when the index is rebuilt', () => {
    const term = (index: number) => `brand${index} ${index % 3 === 0 ? 'cloud' : 'app'}`;
    const keywords = Array.from({ length: 2000 }, (_, index) => keyword(`kw${index}`, term(index), { exactPhrase: index % 2 === 0 }));
    const matcher = createMatcher(keywords, new Map());
    const live = new Map<string, KeywordMatchRules>(keywords.map((rules) => [rules.keywordId, rules]));
    for (let index = 0; index < 2000; index++) {
      if (index % 4 === 0) {
        const renamed = keyword(`kw${index}`, `renamed${index}`);
        matcher.upsertKeyword(renamed);
        live.set(renamed.keywordId, renamed);
      } else {
        matcher.removeKeyword(`kw${index}`);
        live.delete(`kw${index}`);
      }
    }
    const reference = createReferenceMatcher(live.values(), new Map());
    const text = 'brand4 app, renamed4 and renamed8; the app of brand5; brand3 cloud with brand12 clouds; renamed6';
    expect(labels(matcher.match(post(text)))).toEqual(labels(reference.match(post(text))));
    expect(labels(matcher.match(post(text)))).toEqual(['kw4', 'kw8']);
  });

  it('answers a rule term shared by keywords and workspace filters afresh for every post', () => {
    const keywords = [
      keyword('a', 'Rust', { excludedTerms: ['hiring now', 'job*'] }),
      keyword('b', 'Rust', { workspaceId: 'org_b', requiredTerms: ['hiring now'] }),
      keyword('c', 'Rust', { workspaceId: 'org_c' }),
    ];
    const matcher = createMatcher(keywords, new Map([['org_c', filters({ excludedTerms: ['hiring now', 'JOB*'] })]]));
    const expectations: [string, string[]][] = [
      ['Rust is hiring now', ['b']],
      ['Rust is hiring', ['a', 'c']],
      ['Rust jobs, hiring now', ['b']],
      ['Rust jobs', []],
      ['Rust', ['a', 'c']],
    ];
    for (const [text, expected] of expectations) expect([text, labels(matcher.match(post(text)))]).toEqual([text, expected]);
    const reference = createReferenceMatcher(keywords, new Map([['org_c', filters({ excludedTerms: ['hiring now', 'JOB*'] })]]));
    for (const [text] of expectations) expect(labels(matcher.match(post(text)))).toEqual(labels(reference.match(post(text))));
  });

  it('keeps workspace filters right when keywords move between workspaces and leave them', () => {
    const matcher = createMatcher([keyword('kw', 'Rust')], new Map([['org_b', filters({ excludedTerms: ['job'] })]]));
    expect(labels(matcher.match(post('Rust job')))).toEqual(['kw']);
    matcher.upsertKeyword(keyword('kw', 'Rust', { workspaceId: 'org_b' }));
    expect(matcher.match(post('Rust job'))).toEqual([]);
    matcher.removeKeyword('kw');
    matcher.upsertKeyword(keyword('again', 'Rust', { workspaceId: 'org_b' }));
    expect(matcher.match(post('Rust job'))).toEqual([]);
    matcher.setWorkspaceFilters('org_b', null);
    expect(labels(matcher.match(post('Rust job')))).toEqual(['again']);
  });

  it('keeps excluding an author named by several keywords and filters as they change and leave', () => {
    const spammer = author({ handle: 'spammer', platformId: 'spam1', name: 'Spam Bot' });
    const fromSpammer = (text: string) => post(text, { author: spammer });
    const matcher = createMatcher(
      [keyword('a', 'Rust', { excludedAuthors: ['@spammer'] }), keyword('b', 'Rust', { workspaceId: 'org_b', excludedAuthors: ['@spammer'] })],
      new Map([['org_c', filters({ excludedAuthors: ['@spammer'] })]]),
    );
    matcher.upsertKeyword(keyword('c', 'Rust', { workspaceId: 'org_c' }));
    expect(matcher.match(fromSpammer('Rust'))).toEqual([]);
    expect(labels(matcher.match(post('Rust')))).toEqual(['a', 'b', 'c']);
    matcher.removeKeyword('a');
    matcher.upsertKeyword(keyword('b', 'Rust', { workspaceId: 'org_b' }));
    expect(labels(matcher.match(fromSpammer('Rust')))).toEqual(['b']);
    matcher.upsertKeyword(keyword('a', 'Rust', { excludedAuthors: ['hackernews:spammer'] }));
    matcher.setWorkspaceFilters('org_c', filters({ excludedAuthors: ['name:spam bot'] }));
    expect(labels(matcher.match(fromSpammer('Rust')))).toEqual(['b']);
    matcher.setWorkspaceFilters('org_c', null);
    expect(labels(matcher.match(fromSpammer('Rust')))).toEqual(['b', 'c']);
  });

  it('finds terms and rule words holding digits, accents, other scripts and characters outside the basic plane', () => {
    const keywords = [
      keyword('digits', 'Web3 2024'),
      keyword('accent', 'Café', { requiredTerms: ['naïve'] }),
      keyword('greek', 'Ωmega λab', { exactPhrase: true }),
      keyword('astral', '𝒳ylo', { excludedTerms: ['𝒵eta'] }),
      keyword('cjk', '東京'),
    ];
    const matcher = createMatcher(keywords, new Map());
    const reference = createReferenceMatcher(keywords, new Map());
    const expectations: [string, string[]][] = [
      ['web3 2024 is here', ['digits']],
      ['a naïve CAFÉ', ['accent']],
      ['a café, not naive', []],
      ['ωmega λab', ['greek']],
      ['𝒳ylo and 𝒳ylos', ['astral']],
      ['𝒳ylo meets 𝒵eta', []],
      ['Rustを東京で', ['cjk']],
    ];
    for (const [text, expected] of expectations) {
      expect([text, labels(matcher.match(post(text)))]).toEqual([text, expected]);
      expect(labels(matcher.match(post(text)))).toEqual(labels(reference.match(post(text))));
    }
  });

  it('finds a fuzzy term\'s words close together among many hits of them far apart', () => {
    const keywords = [keyword('kw', 'vector database')];
    const matcher = createMatcher(keywords, new Map());
    const reference = createReferenceMatcher(keywords, new Map());
    const apart = (count: number) => Array.from({ length: count }, (_, index) => (index % 2 ? 'vector one two three four five six' : 'databases one two three four five six')).join(' ');
    for (const count of [6, 40]) {
      expect(matcher.match(post(apart(count)))).toEqual([]);
      expect(labels(matcher.match(post(`${apart(count)} the databases for vectors`)))).toEqual(['kw~']);
      expect(labels(matcher.match(post(`vectors in databases ${apart(count)}`)))).toEqual(labels(reference.match(post(`vectors in databases ${apart(count)}`))));
    }
  });

  it('never matches a term that is only whitespace', () => {
    expect(createMatcher([keyword('kw', '   ')], new Map()).match(post('   '))).toEqual([]);
  });
});
