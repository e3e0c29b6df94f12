/**
 * A hash of a token's code units, cheap enough to take of every token of a
 * post: the scan folds each code unit in as it reads it (signatureStep), so
 * a word's signature costs one multiplication per character on top of the
 * read the scan makes anyway, and a final mix. The vocabulary's filter and
 * the scanned words' chains key on it; equal tokens always share it.
 */
export const SIGNATURE_SEED = 0x9e3779b9 | 0;

export function signatureStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

/** The signature of the token whose code units signatureStep folded into `hash`, from SIGNATURE_SEED. */
export function signatureEnd(hash: number): number {
  const mixed = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
  return mixed ^ (mixed >>> 12);
}

export function tokenSignature(text: string, start: number, end: number): number {
  let hash = SIGNATURE_SEED;
  for (let index = start; index < end; index++) hash = signatureStep(hash, text.charCodeAt(index));
  return signatureEnd(hash);
}
