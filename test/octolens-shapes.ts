import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { RestResponse, TestEarshot } from './harness.ts';

/**
 * Octolens's API v2 reference examples (test/fixtures/octolens/, each with
 * its source page) and the check that an answer of ours has their shape:
 * the same field names and nesting, each value of the same JSON type, null
 * only where the reference says a field may be null. Where we answer a
 * field more or less than the example, the fixture says which and why.
 */
export interface OctolensFixture {
  source: string;
  request: { method: string; path: string; body?: unknown };
  response: { status: number; body: unknown };
  nullable: string[];
  added?: { fields: string[]; why: string };
  omitted?: { fields: string[]; why: string };
}

export function octolensFixture(name: string): OctolensFixture {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures/octolens', `${name}.json`), 'utf8'));
}

const join = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

interface ShapeRules {
  nullable: Set<string>;
  added: string[];
  omitted: Set<string>;
}

function shapeProblems(actual: unknown, expected: unknown, at: string, rules: ShapeRules): string[] {
  const where = at || '(body)';
  if (actual === null || expected === null) {
    return actual === expected || rules.nullable.has(at) ? [] : [`${where}: ${kindOf(actual)} where the reference shows ${kindOf(expected)}`];
  }
  if (kindOf(actual) !== kindOf(expected)) return [`${where}: ${kindOf(actual)} where the reference shows ${kindOf(expected)}`];
  if (Array.isArray(expected)) {
    if (expected.length === 0) return [];
    return (actual as unknown[]).flatMap((item) => shapeProblems(item, expected[0], `${at}[]`, rules));
  }
  // An empty object in the reference is a map whose keys vary (`appliedChanges`).
  if (typeof expected !== 'object' || Object.keys(expected as object).length === 0) return [];
  const ours = actual as Record<string, unknown>;
  const theirs = expected as Record<string, unknown>;
  const wanted = new Set([
    ...Object.keys(theirs).filter((key) => !rules.omitted.has(join(at, key))),
    ...rules.added.filter((field) => field.slice(0, field.lastIndexOf('.') + 1) === (at ? `${at}.` : '')).map((field) => field.slice(field.lastIndexOf('.') + 1)),
  ]);
  const problems = [
    ...[...wanted].filter((key) => !(key in ours)).map((key) => `${join(at, key)}: missing`),
    ...Object.keys(ours).filter((key) => !wanted.has(key)).map((key) => `${join(at, key)}: not in the reference`),
  ];
  for (const key of Object.keys(theirs)) {
    if (key in ours && wanted.has(key)) problems.push(...shapeProblems(ours[key], theirs[key], join(at, key), rules));
  }
  return problems;
}

/** Expects the answer to have the status and body shape of the reference example `name`. */
export function expectOctolensShape(response: RestResponse, name: string): void {
  const fixture = octolensFixture(name);
  expect(response.status, JSON.stringify(response.body)).toBe(fixture.response.status);
  const rules = { nullable: new Set(fixture.nullable), added: fixture.added?.fields ?? [], omitted: new Set(fixture.omitted?.fields ?? []) };
  expect(shapeProblems(response.body, fixture.response.body, '', rules)).toEqual([]);
}

/** An Octolens error envelope (spec 4.8): upper-case code, the status repeated. */
export function expectOctolensError(response: RestResponse, status: number, code: string, extra: Record<string, unknown> = {}): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.body).toEqual({ error: { code, message: expect.any(String), status, ...extra } });
}

export const octolensBase = '/compat/octolens/api/v2';

/** A request to the compatibility API. */
export const octolens = (earshot: TestEarshot, method: string, route: string, key: string | undefined, body?: unknown) =>
  earshot.rest(method, `${octolensBase}${route}`, { key, body });
