let check = 0;

/**
 * Hashes text[start, end) twice at once: FNV-1a (returned, mixed so its low
 * bits can index a table) and a multiply-rotate hash seeded with the length
 * (read with lastTokenCheck). Tables compare both, a 1 in 2^64 chance of
 * taking one token for another, so a token's text need not be read again.
 * The second value goes through a module variable so that the scan's hot
 * path allocates nothing.
 */
export function hashToken(text: string, start: number, end: number): number {
  let first = 0x811c9dc5;
  let second = end - start;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul((second << 5) | (second >>> 27), 0x5bd1e995) + code;
  }
  check = second;
  first = Math.imul(first ^ (first >>> 16), 0x85ebca6b);
  first = Math.imul(first ^ (first >>> 13), 0xc2b2ae35);
  return first ^ (first >>> 16);
}

/** The second hash of the latest hashToken call. */
export function lastTokenCheck(): number {
  return check;
}
