import { z } from 'zod';
import { keywordKinds } from '../../vocabulary/keyword-kinds.ts';
import type { AccountEventName } from './account-event-store.ts';

/**
 * The `data` body of each account event, field for field as spec 6.4 lists
 * it: the builders of run-state-events.ts are typed by these schemas, and the
 * OpenAPI document describes the webhook requests with them, so the two
 * cannot drift apart.
 */

const timestamp = z.iso.datetime();
const count = z.number().int().min(0);
const cents = z.number().int();

export const resumeReasons = ['balance_restored', 'cap_raised', 'cap_removed', 'month_turned'] as const;
export type ResumeReason = (typeof resumeReasons)[number];

const keyword = z.strictObject({ id: z.string().meta({ example: 'kw_01jd8x3m5c2v7q9r4t6w8y0z1a' }), term: z.string(), kind: z.enum(keywordKinds) });

export const eventWalletSchema = z
  .strictObject({
    balanceCents: cents,
    effectiveCents: cents.meta({ description: 'The balance less the keyword days due today and not charged yet' }),
    nextDayCents: cents.meta({ description: 'What one more day of every running keyword costs' }),
    resumeCostCents: cents.meta({ description: 'The least credit that resumes the keywords the wallet paused: a day of every keyword, running and paused, less the effective balance; 0 when none is paused' }),
    activeKeywords: count,
    pausedKeywords: count.meta({ description: 'Keywords the wallet paused' }),
  })
  .meta({ id: 'AccountEventWallet', description: 'The wallet right after the transition' });

export const accountEventData = {
  'keyword.capped': z.strictObject({
    keyword,
    cap: z.strictObject({ mentions: z.number().int().min(1) }),
    thisMonth: count.meta({ description: 'Charged items of the keyword this calendar month (UTC)' }),
    pausedAt: timestamp,
    resumesAt: timestamp.meta({ description: 'When the next cap period starts (UTC)' }),
  }),
  'keyword.paused_for_balance': z.strictObject({ keyword, pausedAt: timestamp, wallet: eventWalletSchema }),
  'keyword.resumed': z.strictObject({ keyword, reason: z.enum(resumeReasons), resumedAt: timestamp }),
  'wallet.low': z.strictObject({ wallet: eventWalletSchema, lastCreditCents: cents, at: timestamp }),
  'wallet.paused': z.strictObject({ wallet: eventWalletSchema, keywordsPaused: count, at: timestamp }),
  'wallet.resumed': z.strictObject({ wallet: eventWalletSchema, keywordsResumed: count, at: timestamp }),
} satisfies Record<AccountEventName, z.ZodType>;

export type AccountEventData<Name extends AccountEventName> = z.input<(typeof accountEventData)[Name]>;
