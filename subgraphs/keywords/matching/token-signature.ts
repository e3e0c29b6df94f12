/**
 * A cheap stand-in for the hash, read from five code units (the first three,
 * the last two) and the length only: the scan asks about every token of a
 * post, and most are not in the vocabulary, so the answer "no" must not cost
 * a pass over the token. Fewer code units let too many words share a
 * signature with some word of a pattern (all words of one length that start
 * with "da" and end with "e" once looked alike), and each of those costs a
 * full look-up.
 */
export function tokenSignature(text: string, start: number, end: number): number {
  const length = end - start;
  const second = length > 1 ? text.charCodeAt(start + 1) : 0;
  const third = length > 2 ? text.charCodeAt(start + 2) : 0;
  const beforeLast = length > 3 ? text.charCodeAt(end - 2) : 0;
  let hash = Math.imul(text.charCodeAt(start), 0x9e3779b1) ^ Math.imul(second, 0x85ebca6b) ^ Math.imul(third, 0x27d4eb2f);
  hash ^= Math.imul(text.charCodeAt(end - 1), 0xc2b2ae35) ^ Math.imul(beforeLast, 0x165667b1) ^ Math.imul(length, 0x2c1b3c6d);
  hash = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
  return hash ^ (hash >>> 12);
}
