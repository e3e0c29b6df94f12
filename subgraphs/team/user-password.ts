import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { z } from 'zod';
import type { Queryable } from '../../runtime/database.ts';
import { findUserByEmail, setPasswordHash } from './user-store.ts';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number, options: object) => Promise<Buffer>;

// 2^15 × 8 × 128 bytes = 32 MiB per hash: memory-hard, about 0.1 s on one core.
const cost = { N: 2 ** 15, r: 8, p: 1 };
const keyLength = 32;
const maxmem = 64 * 1024 * 1024;

/** `scrypt$N$r$p$salt$hash`, the parameters kept so they can be raised later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, keyLength, { ...cost, maxmem });
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

// Compared against when the address has no password, so an unknown address takes as long as a wrong password.
let standIn: Promise<string> | undefined;

/** Whether `password` matches `stored`; with no stored hash it still spends the same work and says no. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = (stored ?? (await (standIn ??= hashPassword(randomBytes(16).toString('hex'))))).split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const given = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(N), r: Number(r), p: Number(p), maxmem });
  return timingSafeEqual(given, expected) && stored !== null;
}

export const passwordRule = z.string().min(10, 'must be at least 10 characters').max(1024, 'must be at most 1024 characters');

/** Sets the password of the user with this address and returns the user's id; undefined when there is no such user. */
export async function setUserPassword(sql: Queryable, email: string, password: string): Promise<string | undefined> {
  const user = await findUserByEmail(sql, email);
  if (!user) return undefined;
  await setPasswordHash(sql, user.id, await hashPassword(passwordRule.parse(password)));
  return user.id;
}
