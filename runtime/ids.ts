import { randomBytes } from 'node:crypto';

const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';

function encodeTime(ms: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = alphabet[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/**
 * A public id such as `org_01hx…`: the prefix names the resource, then a
 * ULID-style body whose leading timestamp keeps ids in creation order, which
 * list cursors rely on.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  const random = randomBytes(16);
  let body = encodeTime(now, 10);
  for (let i = 0; i < 16; i++) body += alphabet[random[i] % 32];
  return `${prefix}_${body}`;
}

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `bytes` of randomness as base62 text, used for secrets handed to users once. */
export function randomBase62(bytes: number): string {
  let value = BigInt('0x' + randomBytes(bytes).toString('hex'));
  const length = Math.ceil((bytes * 8) / Math.log2(62));
  let out = '';
  for (let i = 0; i < length; i++) {
    out = base62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}
