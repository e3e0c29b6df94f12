import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

export interface EnglishReading {
  /** wink-nlp's sentiment per sentence, -1 to +1, with negation, emoji and emoticons. */
  sentences: { sentiment: number; question: boolean }[];
}

export interface EnglishReader {
  read(text: string): EnglishReading;
  /** True when the lower-case word is in the model's English lexicon (a common word rather than a coined name). */
  isEnglishWord(word: string): boolean;
}

/**
 * wink-nlp with its English lite model, limited to the pipeline steps the
 * classifier reads (sentences, negation, sentiment). Part-of-speech tagging
 * took about 40% of the reading time and, as evidence of how a term is used,
 * changed no relevance verdict on the tune posts of the evaluation set.
 */
export function createEnglishReader(): EnglishReader {
  const nlp = winkNLP(model, ['sbd', 'negation', 'sentiment']);
  const its = nlp.its;
  // Words outside the model's lexicon get ids past its end, numbered as they
  // are met; a never-seen nonsense word, read first, marks where that is.
  const firstUnknownId = nlp.readDoc('qzxwvjkq').tokens().out(its.uniqueId)[0] as number;
  const lexiconVerdicts = new Map<string, boolean>();
  // Callers ask about words of posts, an open set: the cache starts over
  // rather than grow without end.
  const maxCachedVerdicts = 50_000;

  return {
    read(text) {
      const sentences = nlp.readDoc(text).sentences();
      const sentiments = sentences.out(its.sentiment) as unknown as number[];
      return {
        sentences: (sentences.out() as string[]).map((sentence, index) => ({
          sentiment: sentiments[index],
          question: /[?？]\s*$/u.test(sentence),
        })),
      };
    },
    isEnglishWord(word) {
      const lower = word.toLowerCase();
      let known = lexiconVerdicts.get(lower);
      if (known === undefined) {
        const ids = nlp.readDoc(lower).tokens().out(its.uniqueId) as number[];
        known = ids.length === 1 && ids[0] < firstUnknownId;
        if (lexiconVerdicts.size >= maxCachedVerdicts) lexiconVerdicts.clear();
        lexiconVerdicts.set(lower, known);
      }
      return known;
    },
  };
}
