import { z } from 'zod';

const entriesOf = (value: string | string[]) =>
  [value]
    .flat()
    .flatMap((entry) => entry.split(','))
    .map((entry) => entry.trim())
    .filter(Boolean);

// Only the characters a Unicode-mode expression (JSON Schema's) lets one escape.
const escapedForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** An entry as a regular expression without anchors, when its schema pins one down: its enum, or its anchored pattern. */
function entryPattern(entry: Record<string, unknown>): string | undefined {
  if (Array.isArray(entry.enum)) return entry.enum.map((value) => escapedForPattern(String(value))).join('|');
  if (typeof entry.pattern === 'string' && /^\^.*\$$/.test(entry.pattern)) return entry.pattern.slice(1, -1);
  return undefined;
}

/**
 * What `openapi.json` says the parameter takes: the comma-separated text
 * with each entry's enum or pattern, or the array of entries as `item`
 * describes them. Read from the input side only, it would be any text.
 */
function listDescription(item: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...entry } = z.toJSONSchema(item, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const pattern = entryPattern(entry);
  const text = pattern === undefined ? { type: 'string' } : { type: 'string', pattern: `^(?:${pattern})(?:,(?:${pattern}))*$` };
  return { anyOf: [text, { type: 'array', items: entry }] };
}

/**
 * A list query parameter: the parameter repeated (`a=1&a=2`, how OpenAPI
 * sends an array in a query), comma-separated, or both, each entry checked
 * by `item`. Shared by the mention filters and the facade's own list routes.
 */
export const queryList = <Item extends z.ZodType<unknown, string>>(item: Item) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform(entriesOf)
    .pipe(z.array(item).min(1, 'must name at least one'))
    .meta(listDescription(item));
