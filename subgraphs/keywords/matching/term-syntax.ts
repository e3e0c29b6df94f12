import { collapseWhitespace, normalizeText } from './unicode-words.ts';

export interface ParsedTerm {
  term: string;
  exactPhrase: boolean;
}

/**
 * The form every term, required term and excluded term is compared in: NFC,
 * one space for any run of whitespace, no whitespace at either end. A post's
 * line breaks then never stop "open source" from matching.
 */
export function normalizeTermText(raw: string): string {
  return collapseWhitespace(normalizeText(raw)).trim();
}

// Typed quotes arrive as often as straight ones from phones and word processors.
const QUOTED = /^["\u201c\u201e](.*)["\u201d\u201c]$/su;

/** Spec 2.1: a term sent in double quotes sets `exactPhrase` and is stored without them. */
export function parseTerm(raw: string): ParsedTerm {
  const trimmed = normalizeTermText(raw);
  const quoted = QUOTED.exec(trimmed);
  if (quoted) return { term: normalizeTermText(quoted[1]), exactPhrase: true };
  return { term: trimmed, exactPhrase: false };
}
