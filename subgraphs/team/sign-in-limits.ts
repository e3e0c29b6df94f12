import { isIPv4, isIPv6 } from 'node:net';
import type { Queryable } from '../../runtime/database.ts';
import { domainError } from '../domain-error.ts';
import { type AttemptLimit, attemptsBlockedFor, countAttempt, uncountAttempt } from './sign-in-attempt-store.ts';
import { normaliseEmail } from './user-store.ts';

/**
 * Ceilings per 15-minute window. Failed sign-ins stop guessing at one
 * account from one address, at many accounts from one address (an office
 * behind one address gets three times an account's allowance), and, far
 * higher, at one account from everywhere. Counted per account alone, ten
 * wrong tries by anyone would lock the owner out of password sign-in for
 * a quarter of an hour: the pair keeps a stranger's guesses from costing
 * the owner their own tries. Sign-in links asked for keep anyone from
 * flooding a mailbox or the mail server.
 */
const failedSignIns = { perAccountFromAddress: 10, perAccount: 100, perAddress: 30 };
const signInLinks = { perAccount: 5, perAddress: 20 };

/**
 * Where a client connects from, as counted: an IPv4 address (also written
 * as IPv6), or the /64 of an IPv6 address, since one host or household
 * usually holds a whole /64 and could otherwise step through it.
 */
export function addressSubject(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped || isIPv4(address)) return mapped ?? address;
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

const accountSubject = (kind: string, email: string) => `${kind}:account:${normaliseEmail(email)}`;
const addressLimit = (kind: string, clientAddress: string, limit: number): AttemptLimit => ({ subject: `${kind}:address:${addressSubject(clientAddress)}`, limit });

/** Without a client address (a caller inside the process), an account has only its own-address allowance. */
export function failedSignInLimits(email: string, clientAddress: string | null): AttemptLimit[] {
  const account = accountSubject('sign-in', email);
  if (!clientAddress) return [{ subject: account, limit: failedSignIns.perAccountFromAddress }];
  return [
    { subject: account, limit: failedSignIns.perAccount },
    { subject: `${account}:from:${addressSubject(clientAddress)}`, limit: failedSignIns.perAccountFromAddress },
    addressLimit('sign-in', clientAddress, failedSignIns.perAddress),
  ];
}

export function signInLinkLimits(email: string, clientAddress: string | null): AttemptLimit[] {
  return [
    { subject: accountSubject('sign-in-link', email), limit: signInLinks.perAccount },
    ...(clientAddress ? [addressLimit('sign-in-link', clientAddress, signInLinks.perAddress)] : []),
  ];
}

/**
 * Counts an attempt before it is made, and refuses it (`429 rate_limited`
 * with `Retry-After`, the attempt taken back) when it would go past any of
 * `limits`. Counted first, attempts made at the same moment cannot all pass
 * a check none of them has counted in yet. Answers what takes the attempt
 * back, for one that turns out not to count (a sign-in that succeeded).
 */
export async function claimAttempt(sql: Queryable, limits: readonly AttemptLimit[], message: string): Promise<() => Promise<void>> {
  const windowStart = await countAttempt(sql, limits);
  const takeBack = () => uncountAttempt(sql, limits, windowStart);
  // Counted already, this attempt is the ceiling-plus-one-th when the ceiling was reached before it.
  const blockedFor = await attemptsBlockedFor(sql, limits.map((limit) => ({ ...limit, limit: limit.limit + 1 })));
  if (blockedFor !== null) {
    await takeBack();
    throw domainError('rate_limited', message, { retryAfterSeconds: blockedFor });
  }
  return takeBack;
}
