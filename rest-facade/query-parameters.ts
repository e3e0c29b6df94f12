import { z } from 'zod';

/**
 * Query parameter forms the list routes share: a value read as text and
 * turned into what the GraphQL operation takes, with a bad value named by
 * its parameter (and its position in a list, `stages.1`).
 */

const entriesOf = (value: string) => value.split(',').map((entry) => entry.trim()).filter(Boolean);

/** A comma-separated list, each item checked by `item`. */
export const commaSeparated = <Item extends z.ZodType<unknown, string>>(item: Item) =>
  z.string().transform(entriesOf).pipe(z.array(item).min(1, 'must name at least one'));

/**
 * A list sent as the parameter repeated (`a=1&a=2`, how OpenAPI sends an
 * array in a query), comma-separated, or both, each item checked by `item`.
 */
export const repeatedOrCommaSeparated = <Item extends z.ZodType<unknown, string>>(item: Item) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((value) => [value].flat().flatMap(entriesOf))
    .pipe(z.array(item).min(1, 'must name at least one'));

export const booleanText = z.enum(['true', 'false']).transform((value) => value === 'true');

export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).optional().meta({ description: 'Page size, 1 to 100 (default 50)' }),
  cursor: z.string().min(1).optional().meta({ description: '`nextCursor` of the page before' }),
};
