import { z } from 'zod';

/**
 * Query parameter forms the list routes share: a value read as text and
 * turned into what the GraphQL operation takes, with a bad value named by
 * its parameter (and its position in a list, `stages.1`).
 */

export const booleanText = z.enum(['true', 'false']).transform((value) => value === 'true');

/**
 * A whole number written in decimal digits only, from `min` to `max`. Not
 * `Number(text)`: that reads `0x10` as 16, `1e1` as 10, ` 5` as 5 and an
 * empty value as 0, so a typo would quietly become some other page size.
 * Described to clients as the integer it is, not as the text it arrives in.
 */
export const wholeNumberText = (min: number, max: number, message?: string) =>
  z
    .string()
    .refine((text) => /^\d{1,15}$/.test(text), message ?? 'must be a whole number')
    .meta({ type: 'integer', minimum: min, maximum: max })
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));

/** The page size every `/v1` list takes. */
export const pageLimit = wholeNumberText(1, 100).optional().meta({ description: 'Page size, 1 to 100 (default 50)' });

export const pageQuery = {
  limit: pageLimit,
  cursor: z.string().min(1).optional().meta({ description: '`nextCursor` of the page before' }),
};
