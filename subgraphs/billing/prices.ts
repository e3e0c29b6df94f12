/**
 * Prices and limits of spec parts 1.7 and 8. The ledger counts fifteenths of
 * a cent, so a keyword day (500/30 = 50/3 cents) and a mention or comment
 * (0.8 cents) are exact integers; a cents figure is rounded once, on its
 * total (2.1.4).
 */
export const fifteenthsPerCent = 15;
/** A keyword day: $5 a month charged daily, 500/30 cents. */
export const keywordDayFifteenths = 250;
/** A matched mention or a delivered comment: $0.008. */
export const chargedItemFifteenths = 12;
/** Welcome credit of every new workspace: $5.80. */
export const welcomeCreditCents = 580;
/** While on welcome credit every keyword collects at most this many items a month (2.1.1). */
export const welcomeCap = { mentions: 200, per: 'month' } as const;
/** A top-up is any amount from $20 to $5,000. */
export const topUpBounds = { minCents: 2_000, maxCents: 500_000 } as const;
/** wallet.low: the effective balance fell to a fifth (20%) of the last credit (3.2). */
export const lowBalanceDivisor = 5;

/** Whole cents of an exact amount, rounded once. A fifteenth-cent total never ends in exactly half a cent (15 is odd). */
export const centsOf = (fifteenths: number): number => Math.round(fifteenths / fifteenthsPerCent);

/** Whole cents that pay at least `fifteenths`: what a user must add to reach an amount. */
export const centsToCover = (fifteenths: number): number => Math.ceil(fifteenths / fifteenthsPerCent);
