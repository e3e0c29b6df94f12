import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

export interface EnglishReader {
  /** True when the lower-case word is in the model's English lexicon (a common word rather than a coined name). */
  isEnglishWord(word: string): boolean;
}

/**
 * wink-nlp's English lite model, asked only whether a word is in its
 * lexicon, so tokenising is all the pipeline it runs. Its sentence
 * sentiment, once read from every English post, took a fifth of the
 * classifier's time and added nothing the opinion models did not already
 * read from the lexicons (cross-validation on the training posts, PERFORMANCE.md,
 * "Classifier quality").
 */
export function createEnglishReader(): EnglishReader {
  const nlp = winkNLP(model, []);
  const its = nlp.its;
  // Words outside the model's lexicon get ids past its end, numbered as they
  // are met; a never-seen nonsense word, read first, marks where that is.
  const firstUnknownId = nlp.readDoc('qzxwvjkq').tokens().out(its.uniqueId)[0] as number;
  const lexiconVerdicts = new Map<string, boolean>();
  // Callers ask about words of posts, an open set: the cache starts over
  // rather than grow without end.
  const maxCachedVerdicts = 50_000;

  return {
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
