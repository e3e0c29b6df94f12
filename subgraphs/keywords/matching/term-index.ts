import { fuzzyPhrase, fuzzyWindowFits, type FuzzyPhrase } from './fuzzy-phrase.ts';
import { grownTo } from './grown-array.ts';
import type { PreparedPost } from './prepared-post.ts';
import { ScannedText } from './scanned-text.ts';
import { normalizeTermText } from './term-syntax.ts';
import { SIGNATURE_SEED, signatureEnd, signatureStep, tokenSignature } from './token-signature.ts';
import { TokenTrie } from './token-trie.ts';
import { charWidth, tokenizePattern, TokenVocabulary } from './token-vocabulary.ts';
import { classAt, classOfCode, foldCase, SEPARATOR, TRAIL, UNSPACED_CHAR, WORD_CHAR, type CharClass } from './unicode-words.ts';

export const NO_OCCURRENCE = 0;
export const EXACT_OCCURRENCE = 1;
export const FUZZY_OCCURRENCE = 2;
export type Occurrence = typeof NO_OCCURRENCE | typeof EXACT_OCCURRENCE | typeof FUZZY_OCCURRENCE;

/**
 * A fuzzy term's forms as the index checks them, in flat arrays: every
 * candidate reads them, and the form objects (one per word form, scattered in
 * the heap and cold in the processor's cache) are not read at all.
 */
interface IndexedPhrase {
  readonly unitCount: number;
  /** Trie node of each form. */
  readonly nodes: Int32Array;
  /** The term's words each form stands for (FuzzyForm.covers). */
  readonly covers: Int32Array;
  /** Each form as written, for a case-sensitive term; null for any other. */
  readonly caseTexts: readonly string[] | null;
  /** Word ids (see TermIndex.wordIds) of the term's words. */
  readonly wordIds: Int32Array;
}

/**
 * One distinct term in one matching mode, shared by every keyword that tracks
 * it that way ("OpenAI" is tracked by many workspaces; it is looked for once).
 */
export interface IndexedTerm<Keyword> {
  /** Index into the TermIndex's flat arrays of terms. */
  readonly id: number;
  readonly key: string;
  /** Normalized, in the case it was written. */
  readonly text: string;
  readonly caseSensitive: boolean;
  readonly exactNode: number;
  /** Null for an exact phrase or a one-word term. */
  readonly fuzzy: IndexedPhrase | null;
  /** The keywords tracking this term, an array so that a post's candidates read it in one sweep; the matcher keeps it. */
  readonly keywords: Keyword[];
}

/** Restarting the stamps long before Int32 overflows. */
const MAX_SCAN_ID = 1 << 30;

function isSpaceCode(code: number): boolean {
  return (code < 0xd800 || code > 0xdfff) && classOfCode(code) === SEPARATOR;
}

/** Whether text[start, end) spells `term`, a whitespace run standing for the term's one space. */
function spellsAt(text: string, start: number, end: number, term: string): boolean {
  let at = start;
  for (let index = 0; index < term.length; index++) {
    const expected = term.charCodeAt(index);
    if (at >= end) return false;
    if (expected === 32) {
      if (!isSpaceCode(text.charCodeAt(at))) return false;
      while (at < end && isSpaceCode(text.charCodeAt(at))) at++;
    } else if (text.charCodeAt(at++) !== expected) return false;
  }
  return at === end;
}

/** Whether text[start, end) is `expected`, read in place. */
function spelledAs(text: string, start: number, end: number, expected: string): boolean {
  return end - start === expected.length && text.startsWith(expected, start);
}

/**
 * Every active term and fuzzy word form in one trie of token sequences (see
 * token-vocabulary.ts), and the scan that finds them all in one pass over a
 * post (issue 5: candidates come from one scan, not a loop over keywords). A
 * node where a pattern ends is marked with how many terms use it and which
 * terms its hit makes candidates: a term's own text, and for a fuzzy term the
 * forms of one chosen word only (see anchorUnit). Hits are kept
 * per node for the scan, so verifying a candidate reads the hits of its other
 * words instead of searching the text again.
 */
export class TermIndex<Keyword> {
  private readonly vocabulary = new TokenVocabulary();
  private readonly trie = new TokenTrie();
  private readonly terms = new Map<string, IndexedTerm<Keyword>>();
  /**
   * Fuzzy terms' words, each with an id shared by every term holding that
   * word. A hit of any form stamps its words, so a candidate term whose other
   * words never showed up is turned away by reading one stamp per word.
   */
  private readonly wordIds = new Map<string, number>();
  private nodeWords: (number[] | undefined)[] = [];
  private wordStamps = new Int32Array(64);
  /**
   * What turning a candidate away needs of each term, by term id, in flat
   * arrays: most candidates fail, and reading a few numbers per candidate
   * keeps the term objects (scattered in the heap, cold in the processor's
   * cache) out of the scan's way. A fuzzy term's word ids lie in `termWords`
   * from `termWordStart`, `termWordCount` of them.
   */
  private readonly termsById: (IndexedTerm<Keyword> | undefined)[] = [];
  private termStamps = new Int32Array(64);
  private termExactNode = new Int32Array(64);
  private termWordStart = new Int32Array(64);
  private termWordCount = new Int32Array(64);
  private termWords = new Int32Array(256);
  private termWordsUsed = 0;
  private capacity = 0;
  private users = new Int32Array(0);
  /** Ids of the terms each node's hit makes candidates. */
  private triggers: (number[] | undefined)[] = [];
  private stamps = new Int32Array(0);
  private firstHit = new Int32Array(0);
  private hitStart = new Int32Array(256);
  private hitEnd = new Int32Array(256);
  private hitWord = new Int32Array(256);
  private hitNext = new Int32Array(256);
  private hitCount = 0;
  private scanId = 0;
  private readonly candidateIds: number[] = [];
  /** Word index and covered words of each hit of a fuzzy candidate's forms, reused from candidate to candidate. */
  private readonly fuzzyWords: number[] = [];
  private readonly fuzzyCovers: number[] = [];
  private readonly candidates: IndexedTerm<Keyword>[] = [];
  /** Walks under way, one per token they started at; never more than the longest pattern has tokens. */
  private activeNode = new Int32Array(16);
  private activeStart = new Int32Array(16);
  private activeWord = new Int32Array(16);
  private activeCount = 0;
  private livePatterns = 0;
  private retiredPatterns = 0;
  /** The post scanned last, as its keywords' rules read it. */
  readonly scanned = new ScannedText();

  /** Patterns of released terms still in the trie; the owner rebuilds when they outnumber the live ones. */
  get wastedShare(): number {
    const total = this.livePatterns + this.retiredPatterns;
    return total === 0 ? 0 : this.retiredPatterns / total;
  }

  /** The term for `text` in this mode, indexed on first use. */
  acquire(text: string, caseSensitive: boolean, exactPhrase: boolean): IndexedTerm<Keyword> {
    const normalized = normalizeTermText(text);
    const phrase = exactPhrase ? null : fuzzyPhrase(normalized, caseSensitive);
    const key = `${caseSensitive ? 'C' : 'i'}${phrase ? '~' : '"'}${caseSensitive ? normalized : foldCase(normalized)}`;
    const known = this.terms.get(key);
    if (known) return known;
    const exactNode = this.addPattern(foldCase(normalized));
    const nodes = Int32Array.from(phrase?.forms ?? [], (form) => this.addPattern(form.text));
    const term: IndexedTerm<Keyword> = {
      id: this.termsById.length,
      key,
      text: normalized,
      caseSensitive,
      exactNode,
      fuzzy: phrase ? this.indexPhrase(phrase, nodes, caseSensitive) : null,
      keywords: [],
    };
    this.addTermRow(term);
    this.addTrigger(exactNode, term.id);
    if (phrase) {
      const anchor = this.anchorUnit(phrase, nodes);
      phrase.forms.forEach((form, index) => {
        if (form.covers & (1 << anchor)) this.addTrigger(nodes[index], term.id);
      });
    }
    this.terms.set(key, term);
    return term;
  }

  /** Drops a term no keyword tracks any more; its trie nodes stay until the owner rebuilds. */
  release(term: IndexedTerm<Keyword>) {
    if (this.terms.get(term.key) !== term) return;
    this.terms.delete(term.key);
    this.termsById[term.id] = undefined;
    for (const node of [term.exactNode, ...(term.fuzzy?.nodes ?? [])]) {
      this.users[node]--;
      const list = this.triggers[node];
      if (list?.includes(term.id)) {
        const rest = list.filter((entry) => entry !== term.id);
        this.triggers[node] = rest.length > 0 ? rest : undefined;
      }
      this.livePatterns--;
      this.retiredPatterns++;
    }
  }

  /**
   * Finds every pattern in the post and returns the terms whose trigger hit,
   * valid until the next scan. Reads the folded text once, cutting it into
   * tokens as tokenizePattern cuts patterns, and counting words the way
   * fuzzy matching measures closeness (a run of word characters is a word).
   */
  scan(post: PreparedPost): readonly IndexedTerm<Keyword>[] {
    const text = post.folded;
    this.startScan(text);
    const { scanned, vocabulary } = this;
    const length = text.length;
    let previous: CharClass = SEPARATOR;
    let spaced = false;
    let words = 0;
    let index = 0;
    while (index < length) {
      const code = text.charCodeAt(index);
      if (code === 32) {
        if (previous === SEPARATOR) scanned.singleSpaced = false;
        spaced = true;
        previous = SEPARATOR;
        index++;
        continue;
      }
      const current = code - 0x61 >>> 0 < 26 ? WORD_CHAR : code >= 0xd800 && code <= 0xdfff ? classAt(text, index) : classOfCode(code);
      if (current === WORD_CHAR) {
        // Most of a post is words: read each run in a loop of its own, then take it as one token.
        const start = index;
        let hash = signatureStep(SIGNATURE_SEED, code);
        while (++index < length) {
          const next = text.charCodeAt(index);
          // The folded text is mostly a to z and single spaces: those skip the class table.
          if (next - 0x61 >>> 0 >= 26) {
            if (next === 32) break;
            if (next >= 0xd800 && next <= 0xdfff) {
              const nextClass = classAt(text, index);
              if (nextClass !== WORD_CHAR && nextClass !== TRAIL) break;
            } else if (classOfCode(next) !== WORD_CHAR) break;
          }
          hash = signatureStep(hash, next);
        }
        const signature = signatureEnd(hash);
        scanned.add(start, index, signature);
        if (vocabulary.mayHold(signature)) this.walkToken(text, start, index, signature, spaced, words);
        else this.activeCount = 0;
        words++;
        spaced = false;
        previous = WORD_CHAR;
        continue;
      }
      if (current === TRAIL) {
        index++;
        continue;
      }
      if (current === SEPARATOR) {
        if (code !== 32 || previous === SEPARATOR) scanned.singleSpaced = false;
        spaced = true;
        previous = SEPARATOR;
        index++;
        continue;
      }
      let wordIndex = words;
      if (current === UNSPACED_CHAR) {
        if (previous !== UNSPACED_CHAR) words++;
        wordIndex = words - 1;
      }
      previous = current;
      if (code < 128) {
        // Punctuation: its token is known by its code, without a signature or a look-up.
        const id = vocabulary.asciiId(code);
        if (id >= 0) this.walkId(id, index, index + 1, spaced, wordIndex);
        else this.activeCount = 0;
        spaced = false;
        index++;
        continue;
      }
      const end = index + charWidth(text, index);
      const signature = tokenSignature(text, index, end);
      if (vocabulary.mayHold(signature)) this.walkToken(text, index, end, signature, spaced, wordIndex);
      else this.activeCount = 0;
      spaced = false;
      index = end;
    }
    return this.keepPossibleCandidates();
  }

  /**
   * The candidates that may occur: their own text was found, or every word
   * of their fuzzy form was (see occurrence, which decides).
   */
  private keepPossibleCandidates(): readonly IndexedTerm<Keyword>[] {
    const { candidateIds, candidates, stamps, scanId } = this;
    candidates.length = 0;
    for (const id of candidateIds) {
      const possible = stamps[this.termExactNode[id]] === scanId || (this.termWordCount[id] > 0 && this.everyWordSeen(id));
      if (possible) candidates.push(this.termsById[id]!);
    }
    return candidates;
  }

  /** Whether the last scan saw some form of every word of the fuzzy term `id`: most candidates miss a word outright. */
  private everyWordSeen(id: number): boolean {
    const start = this.termWordStart[id];
    const end = start + this.termWordCount[id];
    for (let word = start; word < end; word++) if (this.wordStamps[this.termWords[word]] !== this.scanId) return false;
    return true;
  }

  /** Moves every walk under way on by one token, and starts one at it. */
  private walkToken(text: string, start: number, end: number, signature: number, spaced: boolean, wordIndex: number) {
    const id = this.vocabulary.find(text, start, end, signature);
    if (id < 0) this.activeCount = 0;
    else this.walkId(id, start, end, spaced, wordIndex);
  }

  /** walkToken for the token of vocabulary id `id`. */
  private walkId(id: number, start: number, end: number, spaced: boolean, wordIndex: number) {
    const { trie, users, activeNode, activeStart, activeWord } = this;
    const label = id * 2 + (spaced ? 1 : 0);
    let kept = 0;
    for (let walk = 0; walk < this.activeCount; walk++) {
      const node = trie.child(activeNode[walk], label);
      if (node < 0) continue;
      if (users[node] > 0) this.record(node, activeStart[walk], end, activeWord[walk]);
      if (!trie.hasChildren(node)) continue;
      activeNode[kept] = node;
      activeStart[kept] = activeStart[walk];
      activeWord[kept] = activeWord[walk];
      kept++;
    }
    const node = trie.rootChild(id * 2);
    if (node >= 0 && users[node] > 0) this.record(node, start, end, wordIndex);
    if (node >= 0 && trie.hasChildren(node)) {
      activeNode[kept] = node;
      activeStart[kept] = start;
      activeWord[kept] = wordIndex;
      kept++;
    }
    this.activeCount = kept;
  }

  /** How the last scanned post holds `term`; an exact occurrence wins over a fuzzy one. */
  occurrence(term: IndexedTerm<Keyword>, post: PreparedPost): Occurrence {
    for (let hit = this.hitsOf(term.exactNode); hit >= 0; hit = this.hitNext[hit]) {
      if (!term.caseSensitive || spellsAt(post.text, this.hitStart[hit], this.hitEnd[hit], term.text)) return EXACT_OCCURRENCE;
    }
    if (!term.fuzzy) return NO_OCCURRENCE;
    if (!this.everyWordSeen(term.id)) return NO_OCCURRENCE;
    const { unitCount, nodes, covers: formCovers, caseTexts } = term.fuzzy;
    const { fuzzyWords: words, fuzzyCovers: covers } = this;
    words.length = 0;
    covers.length = 0;
    for (let index = 0; index < nodes.length; index++) {
      for (let hit = this.hitsOf(nodes[index]); hit >= 0; hit = this.hitNext[hit]) {
        if (caseTexts !== null && !spelledAs(post.text, this.hitStart[hit], this.hitEnd[hit], caseTexts[index])) continue;
        words.push(this.hitWord[hit]);
        covers.push(formCovers[index]);
      }
    }
    return fuzzyWindowFits(words, covers, unitCount) ? FUZZY_OCCURRENCE : NO_OCCURRENCE;
  }

  private hitsOf(node: number): number {
    return this.stamps[node] === this.scanId ? this.firstHit[node] : -1;
  }

  private startScan(text: string) {
    this.scanned.reset(text);
    if (++this.scanId >= MAX_SCAN_ID) {
      this.stamps.fill(0);
      this.wordStamps.fill(0);
      this.termStamps.fill(0);
      this.scanId = 1;
    }
    this.hitCount = 0;
    this.activeCount = 0;
    this.candidateIds.length = 0;
  }

  private record(node: number, start: number, end: number, wordIndex: number) {
    if (this.hitCount === this.hitStart.length) this.growHits();
    const hit = this.hitCount++;
    this.hitStart[hit] = start;
    this.hitEnd[hit] = end;
    this.hitWord[hit] = wordIndex;
    this.hitNext[hit] = this.hitsOf(node);
    this.stamps[node] = this.scanId;
    this.firstHit[node] = hit;
    const words = this.nodeWords[node];
    if (words !== undefined) for (const word of words) this.wordStamps[word] = this.scanId;
    const triggered = this.triggers[node];
    if (triggered === undefined) return;
    for (const id of triggered) {
      if (this.termStamps[id] === this.scanId) continue;
      this.termStamps[id] = this.scanId;
      this.candidateIds.push(id);
    }
  }

  private growHits() {
    const size = this.hitStart.length * 2;
    this.hitStart = grownTo(this.hitStart, size);
    this.hitEnd = grownTo(this.hitEnd, size);
    this.hitWord = grownTo(this.hitWord, size);
    this.hitNext = grownTo(this.hitNext, size);
  }

  private addPattern(pattern: string): number {
    const { tokens, spaced } = tokenizePattern(pattern);
    const labels = tokens.map((token, index) => this.vocabulary.intern(token) * 2 + (index > 0 && spaced[index] ? 1 : 0));
    const node = this.trie.insert(labels);
    this.ensureCapacity(this.trie.nodeCount, labels.length);
    this.users[node]++;
    this.livePatterns++;
    return node;
  }

  private addTrigger(node: number, termId: number) {
    const list = this.triggers[node];
    if (list === undefined) this.triggers[node] = [termId];
    else if (!list.includes(termId)) list.push(termId);
  }

  private addTermRow(term: IndexedTerm<Keyword>) {
    const { id } = term;
    this.termsById.push(term);
    if (id >= this.termStamps.length) {
      const size = this.termStamps.length * 2;
      this.termStamps = grownTo(this.termStamps, size);
      this.termExactNode = grownTo(this.termExactNode, size);
      this.termWordStart = grownTo(this.termWordStart, size);
      this.termWordCount = grownTo(this.termWordCount, size);
    }
    this.termExactNode[id] = term.exactNode;
    const wordIds = term.fuzzy?.wordIds ?? new Int32Array(0);
    if (this.termWordsUsed + wordIds.length > this.termWords.length) {
      this.termWords = grownTo(this.termWords, Math.max(this.termWords.length * 2, this.termWordsUsed + wordIds.length));
    }
    this.termWords.set(wordIds, this.termWordsUsed);
    this.termWordStart[id] = this.termWordsUsed;
    this.termWordCount[id] = wordIds.length;
    this.termWordsUsed += wordIds.length;
  }

  private indexPhrase(phrase: FuzzyPhrase, nodes: Int32Array, caseSensitive: boolean): IndexedPhrase {
    const wordIds = Int32Array.from(phrase.words, (word) => this.wordId(word));
    phrase.forms.forEach((form, index) => {
      const marks = (this.nodeWords[nodes[index]] ??= []);
      wordIds.forEach((id, unit) => {
        if (form.covers & (1 << unit) && !marks.includes(id)) marks.push(id);
      });
    });
    return {
      unitCount: phrase.unitCount,
      nodes,
      covers: Int32Array.from(phrase.forms, (form) => form.covers),
      caseTexts: caseSensitive ? phrase.forms.map((form) => form.caseText!) : null,
      wordIds,
    };
  }

  private wordId(word: string): number {
    let id = this.wordIds.get(word);
    if (id === undefined) {
      id = this.wordIds.size;
      this.wordIds.set(word, id);
      if (id >= this.wordStamps.length) this.wordStamps = grownTo(this.wordStamps, this.wordStamps.length * 2);
    }
    return id;
  }

  /**
   * The word of a fuzzy term whose hits make it a candidate: the one least
   * likely to wake it up for nothing. Long words are rare in posts (Zipf) and
   * a word many other terms use wakes all of them, so the cost guessed is the
   * number of terms using the word over the cube of its length.
   */
  private anchorUnit(phrase: FuzzyPhrase, nodes: Int32Array): number {
    const usage = new Array<number>(phrase.unitCount).fill(0);
    const length = new Array<number>(phrase.unitCount).fill(Infinity);
    phrase.forms.forEach((form, index) => {
      const unit = Math.log2(form.covers);
      if (!Number.isInteger(unit)) return;
      usage[unit] += this.triggers[nodes[index]]?.length ?? 0;
      length[unit] = Math.min(length[unit], form.text.length);
    });
    const cost = (unit: number) => (usage[unit] + 1) / length[unit] ** 3;
    let best = 0;
    for (let unit = 1; unit < phrase.unitCount; unit++) if (cost(unit) < cost(best)) best = unit;
    return best;
  }

  private ensureCapacity(nodeCount: number, tokenCount: number) {
    if (tokenCount >= this.activeNode.length) {
      const size = tokenCount * 2;
      this.activeNode = new Int32Array(size);
      this.activeStart = new Int32Array(size);
      this.activeWord = new Int32Array(size);
    }
    if (nodeCount <= this.capacity) return;
    const capacity = Math.max(nodeCount, this.capacity * 2, 1024);
    this.users = grownTo(this.users, capacity);
    this.stamps = grownTo(this.stamps, capacity);
    this.firstHit = grownTo(this.firstHit, capacity);
    this.capacity = capacity;
  }
}
