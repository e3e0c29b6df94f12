import type { Platform } from '../vocabulary/normalized-post.ts';
import { LiteralGuardedPattern } from './literal-guarded-pattern.ts';
import { unicodeWords } from './unicode-word-boundaries.ts';

// Each pattern's alternatives are tried only on text that holds their literals (`LiteralGuardedPattern`): most posts hold none.
// Job ads in the languages Earshot reads: "We're hiring", "Hiring:", "X is hiring", "wir suchen", "on recrute"…
const jobAd = new LiteralGuardedPattern(unicodeWords(
  /(?:^|[\s(])(?:hiring[:!]|we(?:'re| are) hiring\b|(?:is|are) hiring\b|now hiring\b|join our team\b|wir suchen\b|wir stellen ein\b|on recrute\b|nous recrutons\b|estamos contratando\b|buscamos\b|stiamo cercando\b|assumiamo\b|wij zoeken\b|vacature\b|募集)/u,
));
// "Rust 1.83 is out", "v2.4.0 is now available", "release notes".
const releaseAnnouncement = new LiteralGuardedPattern(unicodeWords(/\b(?:v\d|\d)\d*\.\d+(?:\.\d+)? (?:is out|is here|has been released|(?:is )?now available)\b|\brelease notes\b/u));

// Bug-report templates: "Bug: …", "Steps to reproduce", "Reproduction repo", "Expected … Actual".
const bugReport = new LiteralGuardedPattern(unicodeWords(/^\s*(?:\[bug\]|bug:|bug report\b)|\bsteps to reproduce\b|\brepro(?:duction)? (?:repo|steps|case)\b|\bexpected\b[^.]*\.\s*actual\b/u));

/**
 * What a bug report attaches or says of its test, the template or not:
 * "Minimal repro attached", "Logs attached", "same behaviour", "repro
 * sandbox linked", "reproduzierbar", "reproductible".
 */
const bugEvidence = new LiteralGuardedPattern(unicodeWords(/\b(?:minimal )?repro(?:duction)? (?:attached|linked|below|sandbox|in the)\b|\blogs? (?:attached|below)\b|\bstack ?trace (?:attached|below)\b|\bsame behaviou?r\b|\breproduc(?:ed|ible) (?:in|on|with)\b|\breproduzierbar\b|\breproductible\b|\breproducible\b|\briproducibile\b|\breproduceerbaar\b/u));

/** A bug report, by its template or by what it attaches: a fault told, however calm its words. */
export function reportsBug(text: string): boolean {
  const lower = text.toLowerCase();
  return bugReport.test(lower) || bugEvidence.test(lower);
}

/**
 * Posts that report rather than opine: news headlines, job ads, release
 * announcements and bug reports. Their kind words belong to the genre ("help us keep
 * startups' money safe", "best chance this year to spot…", "a pile of newly
 * stable APIs"), not to the author's attitude; a bug report's "fails" and
 * "crash" describe the problem, and its author asks for a fix, calmly.
 */
export function reportsRatherThanOpines(post: { platform: Platform; text: string }): boolean {
  if (post.platform === 'news') return true;
  // Patterns in lower case on lower-cased text: case-insensitive Unicode matching costs several times as much.
  const text = post.text.toLowerCase();
  return jobAd.test(text) || releaseAnnouncement.test(text) || bugReport.test(text);
}
