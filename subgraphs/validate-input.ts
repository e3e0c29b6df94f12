import type { z } from 'zod';
import { domainError } from './domain-error.ts';

/** The path of the first string holding U+0000, which PostgreSQL text cannot store. */
function pathOfNulCharacter(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = pathOfNulCharacter(inner, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * Parses input against its schema; the first problem becomes one
 * `validation_error` naming the field (`matching.requiredTerms.3`), so REST
 * and GraphQL callers get the same answer.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const nulPath = pathOfNulCharacter(input);
  if (nulPath) {
    const field = nulPath.join('.');
    throw domainError('validation_error', `${field ? `${field}: ` : ''}must not contain NUL characters`, { field: field || null });
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.map(String).join('.');
  throw domainError('validation_error', field ? `${field}: ${issue.message}` : issue.message, { field: field || null });
}
