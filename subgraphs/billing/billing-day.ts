/** A UTC calendar day as the ledger names it (`YYYY-MM-DD`): the unit of keyword charges and of the daily tick. */
export const billingDayOf = (now: Date): string => now.toISOString().slice(0, 10);

/** The instant a UTC day (`YYYY-MM-DD`) starts. */
export const startOfBillingDay = (day: string): Date => new Date(`${day}T00:00:00.000Z`);
