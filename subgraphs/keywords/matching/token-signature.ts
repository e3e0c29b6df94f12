/**
 * A cheap stand-in for the hash, read from three code units (first, second,
 * last) and the length only: the scan asks about every token of a post, and most are not in the
 * vocabulary, so the answer "no" must not cost a pass over the token.
 */
export function tokenSignature(text: string, start: number, end: number): number {
  const length = end - start;
  const second = length > 1 ? text.charCodeAt(start + 1) : 0;
  let hash = Math.imul(text.charCodeAt(start), 0x9e3779b1) ^ Math.imul(second, 0x85ebca6b);
  hash ^= Math.imul(text.charCodeAt(end - 1), 0xc2b2ae35) ^ Math.imul(length, 0x27d4eb2f);
  hash = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
  return hash ^ (hash >>> 12);
}
