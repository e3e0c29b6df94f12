import type { NormalizedPost } from '../../../vocabulary/normalized-post.ts';
import { authorIdentities } from './author-identity.ts';
import { githubRepositoryOf } from './github-repository.ts';
import type { RepositoryEvent } from './repository-events.ts';
import type { ScannedText } from './scanned-text.ts';
import { patternOccursIn, type TermPattern } from './term-pattern.ts';
import { collapseWhitespace, foldCase, normalizeText } from './unicode-words.ts';
import { WordSet, type WordKey, type WordLookup } from './word-set.ts';

/** A post as the matcher takes it: a repository item carries the event the watcher saw (spec 2.1.3). */
export type MatchablePost = NormalizedPost & { repositoryEvent?: RepositoryEvent };

/** Numbers every PreparedPost, so a pattern can say which post its cached answer is for. */
let preparedPosts = 0;

/**
 * One post's text in the forms matching reads, each made once and only when
 * first asked for, and its answers to the rules many keywords share (a
 * workspace's excluded terms, the author's identities).
 */
export class PreparedPost {
  /** NFC; offsets in `folded` are offsets here. */
  readonly text: string;
  readonly folded: string;
  private collapsedText: string | null = null;
  private collapsedFolded: string | null = null;
  private words: WordSet | null = null;
  private foldedWords: WordLookup | null = null;
  private scanned: ScannedText | null = null;
  private identities: readonly string[] | null = null;
  private namedAuthors: { has(identity: string): boolean } | null = null;
  private named: readonly string[] | null = null;
  private subreddit: string | null | undefined = undefined;
  private repository: string | null | undefined = undefined;
  /** Unique in the process: the post a pattern's cached answer is for. */
  private readonly serial = ++preparedPosts;

  constructor(readonly post: MatchablePost) {
    this.text = normalizeText(post.text);
    this.folded = foldCase(this.text);
  }

  /**
   * Takes what the term index's scan of the folded text found (its words, its
   * spacing) instead of reading the text again; only while that scan is the
   * index's last.
   */
  useScan(scanned: ScannedText) {
    this.foldedWords = scanned;
    this.scanned = scanned;
    if (scanned.singleSpaced) {
      this.collapsedText ??= this.text;
      this.collapsedFolded ??= this.folded;
    }
  }

  /** The text with whitespace runs collapsed, folded unless `caseSensitive`: where terms with spaces are looked for. */
  searchableText(caseSensitive: boolean): string {
    if (caseSensitive) return (this.collapsedText ??= collapseWhitespace(this.text));
    return (this.collapsedFolded ??= collapseWhitespace(this.folded));
  }

  /**
   * Whether the post holds the pattern. The answer is kept on the pattern,
   * for this post only: keywords and workspace filters sharing a pattern
   * (PatternPool) look for it once per post.
   */
  contains(pattern: TermPattern): boolean {
    if (pattern.answeredFor === this.serial) return pattern.answer;
    const answer = this.holds(pattern);
    pattern.answeredFor = this.serial;
    pattern.answer = answer;
    return answer;
  }

  private holds(pattern: TermPattern): boolean {
    if (pattern.word) return this.hasWord(pattern.word, pattern.caseSensitive);
    if (this.scanned) {
      if (pattern.wholeWord && !this.hasWord(pattern.wholeWord, pattern.caseSensitive)) return false;
      if (pattern.wordStart && !this.scanned.hasWordStarting(pattern.wordStart)) return false;
      if (pattern.wordEnd && !this.scanned.hasWordEnding(pattern.wordEnd)) return false;
    }
    // A needle without spaces meets whitespace only at its edges, where any run reads the same: no need to collapse.
    const text = pattern.spansWhitespace ? this.searchableText(pattern.caseSensitive) : pattern.caseSensitive ? this.text : this.folded;
    return patternOccursIn(text, pattern);
  }

  /**
   * False when the post surely lacks a whole word of this tokenSignature (see
   * PatternList); without the index's scan, true.
   */
  mayHoldWord(signature: number): boolean {
    return this.scanned === null || this.scanned.mayHold(signature);
  }

  /** Whether the post holds `word` as a whole word, in its case when `caseSensitive`. */
  private hasWord(word: WordKey, caseSensitive: boolean): boolean {
    if (caseSensitive) {
      if (this.scanned) return this.scanned.hasCased(word, this.text);
      return (this.words ??= new WordSet(this.text)).has(word);
    }
    return (this.foldedWords ??= new WordSet(this.folded)).has(word);
  }

  /** The post's subreddit, lower case, as subreddit rules compare it. */
  get subredditName(): string | null {
    if (this.subreddit === undefined) this.subreddit = this.post.subreddit?.toLowerCase() ?? null;
    return this.subreddit;
  }

  /** The `owner/repo` a GitHub item belongs to (githubRepositoryOf), read from its address once for every workspace's filters. */
  get githubRepository(): string | null {
    if (this.repository === undefined) this.repository = githubRepositoryOf(this.post);
    return this.repository;
  }

  /** Each once: the rules only ask whether one of them is excluded. */
  authorIdentities(): readonly string[] {
    return (this.identities ??= authorIdentities(this.post.platform, this.post.author));
  }

  /**
   * Takes every identity some rule excludes (the engine's keywords and
   * workspace filters): the author's other identities can exclude nothing.
   */
  useNamedAuthors(named: { has(identity: string): boolean }) {
    this.namedAuthors = named;
  }

  /**
   * The author's identities that some rule may exclude: all of them, or with
   * useNamedAuthors those it names, for most posts none, so that checking
   * many keywords' excluded authors reads no identity at all.
   */
  excludableIdentities(): readonly string[] {
    const { namedAuthors } = this;
    if (namedAuthors === null) return this.authorIdentities();
    return (this.named ??= this.authorIdentities().filter((identity) => namedAuthors.has(identity)));
  }
}
