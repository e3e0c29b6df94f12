import type { z } from 'zod';
import { domainError } from './domain-error.ts';

/**
 * Why a string cannot be stored, or null when it can: PostgreSQL text holds
 * no U+0000, and a lone surrogate (half of a UTF-16 pair, which JSON's
 * `\ud800` escape can carry) is refused by jsonb and would be turned into
 * U+FFFD in text, so either would fail as an internal error or be stored
 * altered. A surrogate pair is one code point under the `u` flag, so only
 * unpaired halves match.
 */
export function unstorableTextProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (/\p{Cs}/u.test(text)) return 'must not contain lone surrogates (unpaired halves of UTF-16 pairs)';
  return null;
}

/**
 * The path of the first string that cannot be stored (see
 * `unstorableTextProblem`) and what is wrong with it. Walked with a list of
 * its own rather than by recursion: a body nested a hundred thousand levels
 * deep fits in the body limit and would overflow the call stack.
 */
export function unstorableText(value: unknown): { path: string[]; problem: string } | null {
  // Each entry links to its parent, so no path is built until one is found.
  interface Step {
    value: unknown;
    key?: string;
    parent?: Step;
  }
  const pending: Step[] = [{ value }];
  for (let step = pending.pop(); step; step = pending.pop()) {
    if (typeof step.value === 'string') {
      const problem = unstorableTextProblem(step.value);
      if (!problem) continue;
      const path: string[] = [];
      for (let at: Step | undefined = step; at?.parent; at = at.parent) path.unshift(at.key!);
      return { path, problem };
    }
    if (step.value === null || typeof step.value !== 'object') continue;
    const entries = Object.entries(step.value);
    for (let index = entries.length - 1; index >= 0; index--) pending.push({ value: entries[index][1], key: entries[index][0], parent: step });
  }
  return null;
}

/** What is wrong with an input: the field (`matching.requiredTerms.3`, null for the whole input) and a message starting with it. */
export interface InputProblem {
  field: string | null;
  message: string;
}

const withArticle = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isFinite(value) ? 'a number' : 'a number out of range';
  return withArticle(typeof value);
}

const expectedNames: Record<string, string> = {
  int: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  // A JSON object of names to values, which zod calls a record.
  record: 'an object',
  array: 'an array',
  string: 'a string',
  null: 'null',
};

const bound = (origin: string, limit: number | bigint, side: 'at least' | 'at most') =>
  origin === 'string'
    ? `must be ${side} ${limit} characters long`
    : origin === 'array' || origin === 'set'
      ? `must have ${side} ${limit} items`
      : `must be ${side} ${limit}`;

/**
 * Zod's issues in plain words about the JSON sent (`expected an array, got a
 * string`, `must be one of read, write`). Only issues whose schema gave no
 * message of its own come here: the schemas' messages win.
 */
function plainMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (issue.expected === 'int' && typeof issue.input === 'number') return 'must be a whole number';
      if (issue.expected === 'number' && Number.isNaN(issue.input)) return 'must be a number';
      return `expected ${expectedNames[issue.expected] ?? withArticle(issue.expected)}, got ${describeValue(issue.input)}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${String(issue.values[0])}` : `must be one of ${issue.values.map(String).join(', ')}`;
    case 'unrecognized_keys': {
      const shape = (issue.inst as z.ZodObject | undefined)?.shape;
      const allowed = shape ? Object.keys(shape).join(', ') : '';
      const owner = issue.path?.length ? issue.path.map(String).join('.') : 'this body';
      return allowed ? `unknown field; ${owner} takes ${allowed}` : 'unknown field';
    }
    case 'too_small':
      return issue.inclusive === false ? `must be more than ${issue.minimum}` : bound(issue.origin, issue.minimum, 'at least');
    case 'too_big':
      return issue.inclusive === false ? `must be less than ${issue.maximum}` : bound(issue.origin, issue.maximum, 'at most');
    case 'invalid_format':
      return issue.format === 'regex' ? `must match ${issue.pattern}` : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_union':
      return 'matches none of the allowed forms';
    default:
      return undefined;
  }
}

/**
 * A zod issue as an `InputProblem`: each unknown key is one, named by its own
 * path. A record key its key schema refuses comes wrapped in zod's bare
 * "Invalid key in record": the key schema's own words say what a key must be.
 */
function problemsOf(issue: z.core.$ZodIssue): InputProblem[] {
  const paths = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
  const message = issue.code === 'invalid_key' && issue.issues[0] ? issue.issues[0].message : issue.message;
  return paths.map((path) => {
    const field = path.map(String).join('.');
    return { field: field || null, message: field ? `${field}: ${message}` : message };
  });
}

/**
 * Checks input against its schema; each problem is one `InputProblem`
 * naming the field, worded the same for REST bodies, query parameters and
 * GraphQL inputs. The first is the one an answer leads with: an unknown
 * field before anything else, since it is most often a misspelling of the
 * field another problem misses.
 */
export function checkInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): { success: true; data: z.output<Schema> } | { success: false; problems: [InputProblem, ...InputProblem[]] } {
  const unstorable = unstorableText(input);
  if (unstorable) {
    const field = unstorable.path.join('.');
    return { success: false, problems: [{ field: field || null, message: `${field ? `${field}: ` : ''}${unstorable.problem}` }] };
  }
  const result = schema.safeParse(input, { error: plainMessage });
  if (result.success) return { success: true, data: result.data };
  const unknownFirst = [...result.error.issues].sort((a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'));
  const [first, ...rest] = unknownFirst.flatMap(problemsOf);
  return { success: false, problems: [first, ...rest] };
}

/**
 * Parses input against its schema; a problem becomes one `validation_error`
 * naming the field, so REST and GraphQL callers get the same answer.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const checked = checkInput(schema, input);
  if (!checked.success) throw domainError('validation_error', checked.problems[0].message, { field: checked.problems[0].field });
  return checked.data;
}

/**
 * An input object without its null keys, for inputs where GraphQL's null
 * means "not sent" (a filter key left out of a variable object arrives as
 * null) rather than "clear it".
 */
export const withoutNullKeys = (input: Record<string, unknown> | null | undefined): Record<string, unknown> =>
  Object.fromEntries(Object.entries(input ?? {}).filter(([, value]) => value !== null && value !== undefined));
