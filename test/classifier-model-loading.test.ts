import { describe, expect, it, vi } from 'vitest';

describe("the built-in classifier's models", () => {
  // Loaded in one piece they held the event loop for two seconds: an all-in-one process's requests in flight then ran past their deadline.
  it('load a step at a time, the event loop answered between the steps', async () => {
    // A fresh copy of the module, whose models this process has not loaded yet.
    vi.resetModules();
    const { createBuiltInClassifier } = await import('../classifier/built-in-classifier.ts');
    // The language tables come first, as a module import (which has turns of its own): timed is what follows them.
    await (await import('../classifier/language.ts')).loadLanguageDetector();
    const turns: number[] = [];
    let loading = true;
    const turn = () => {
      turns.push(performance.now());
      if (loading) setImmediate(turn);
    };
    const started = performance.now();
    setImmediate(turn);
    await createBuiltInClassifier().prepare!();
    loading = false;
    const ended = performance.now();
    // The steps: the English model, the word vectors, the opinion models (about 200, 80 and 300 ms here), with turns between them.
    const during = [started, ...turns.filter((at) => at <= ended), ended];
    expect(during.length - 2).toBeGreaterThanOrEqual(2);
    const longestHold = Math.max(...during.slice(1).map((at, index) => at - during[index]));
    expect(longestHold).toBeLessThan((ended - started) * 0.75);
  }, 60_000);
});
