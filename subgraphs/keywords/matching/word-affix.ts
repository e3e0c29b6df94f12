/** The first or last few letters a wildcard term pins a post's word to: see TermPattern.wordStart. */
export interface WordAffix {
  /** Lower-case ASCII letters and digits, AFFIX_BUCKET_UNITS or more. */
  readonly text: string;
  /** affixBucket of the affix's first AFFIX_BUCKET_UNITS code units (wordStart) or last ones (wordEnd). */
  readonly bucket: number;
}

/** Code units of a word's start or end that pick its bucket: words shorter than this are never chained. */
export const AFFIX_BUCKET_UNITS = 3;
export const AFFIX_BUCKET_BITS = 10;

/**
 * The bucket of text[at, at + AFFIX_BUCKET_UNITS): a plain polynomial of the
 * code units, as cheap as can be, since a post's every word is bucketed and
 * a chain's words are compared in full anyway.
 */
export function affixBucket(text: string, at: number): number {
  return (text.charCodeAt(at) * 1089 + text.charCodeAt(at + 1) * 33 + text.charCodeAt(at + 2)) & ((1 << AFFIX_BUCKET_BITS) - 1);
}

/** A code unit's lower case when it is an ASCII letter or digit; -1 for any other. */
function asciiWordCode(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x7a ? lower : -1;
}

/**
 * The needle's leading (or trailing) run of ASCII letters and digits, lower
 * case, when it is long enough to bucket; null otherwise. Only ASCII: its
 * lower case is the same whatever stands around it, so the run is spelled
 * the same in the post's folded text wherever the needle occurs, in whatever
 * case the needle is matched.
 */
export function wordAffix(needle: string, atEnd: boolean): WordAffix | null {
  let text = '';
  for (let offset = 0; offset < needle.length; offset++) {
    const code = asciiWordCode(needle.charCodeAt(atEnd ? needle.length - 1 - offset : offset));
    if (code < 0) break;
    text = atEnd ? String.fromCharCode(code) + text : text + String.fromCharCode(code);
  }
  if (text.length < AFFIX_BUCKET_UNITS) return null;
  return { text, bucket: affixBucket(text, atEnd ? text.length - AFFIX_BUCKET_UNITS : 0) };
}
