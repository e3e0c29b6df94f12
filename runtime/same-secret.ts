import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a secret sent by a client (a token, a header, a signature in text)
 * is the one expected, compared in constant time, so the time an answer
 * takes tells nothing of how much of it matched. Only the lengths may
 * differ quickly, and a secret's length is no secret.
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
