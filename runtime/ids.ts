import { randomBytes, randomFillSync } from 'node:crypto';

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
 * Random bytes for ids, drawn from the system's CSPRNG 256 ids at a time and
 * never used twice: storing a batch of posts makes several ids a mention,
 * and a call to the CSPRNG per id cost more than all the rest of storing
 * did in Node (issue 18).
 */
const idRandomPool = Buffer.alloc(16 * 256);
let poolOffset = idRandomPool.length;

/**
 * A public id such as `org_01hx…`: the prefix names the resource, then a
 * ULID-style body whose leading timestamp keeps ids in creation order, which
 * list cursors rely on.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  if (poolOffset === idRandomPool.length) {
    randomFillSync(idRandomPool);
    poolOffset = 0;
  }
  let body = encodeTime(now, 10);
  for (let i = poolOffset; i < poolOffset + 16; i++) body += alphabet[idRandomPool[i] % 32];
  poolOffset += 16;
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
