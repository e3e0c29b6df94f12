import fc from 'fast-check';

/**
 * What an attacker or a broken client sends instead of a value: text that
 * breaks parsers, stores and logs, values of the wrong JSON type, and
 * nesting deep enough to exhaust a recursive reader. Shared by the fuzz
 * runs of every surface (REST, the compatibility API, GraphQL, MCP).
 */

/** Strings that have broken a parser, an SQL statement, a path or a log somewhere. */
const knownBadStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'a\udfffb',
  '\udc00\ud800',
  '\ufeff',
  '\u202e\u0644\u0627',
  'e\u0301\u0301\u0301\u0301',
  '\u200b\u200c\u200d',
  '\u{1F600}\u{1F469}\u200d\u{1F4BB}',
  '𝕬𝖈𝖒𝖊',
  'İıſK',
  "' OR '1'='1",
  "'; drop table keywords; --",
  '"; select pg_sleep(10); --',
  '$1',
  '%s%s%s%n',
  '\\',
  '\\x00',
  '../../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '/v1/../v1/whoami',
  '?x=1#y',
  '\r\nX-Injected: 1',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e400',
  '9'.repeat(400),
  '{"a":1}',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]:22/',
  'http://0x7f.1/',
  'kw_' + '0'.repeat(26),
  'mm_%00',
];

/** Text of every kind of hostile: the known bad strings, huge ones, and arbitrary Unicode and bytes. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...knownBadStrings) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...knownBadStrings), { minLength: 2, maxLength: 5 }).map((parts) => parts.join('')) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('x', 'é', '\u{1F600}', '\u0000', "'", '%'), fc.constantFrom(1_000, 70_000, 300_000))
      .map(([unit, length]) => unit.repeat(length)),
  },
);

/** A value nested `depth` levels of arrays or objects deep. */
export function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** JSON text nested deeper than any recursive reader should follow; as text, since building the value would take the same recursion. */
export const deeplyNestedJson = (depth: number, kind: 'array' | 'object'): string =>
  kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** A JSON value of any type but the expected one, or nested deep, or huge. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      -0,
      1e308,
      -1e308,
      2 ** 31,
      -(2 ** 31) - 1,
      2 ** 53 + 1,
      [],
      {},
      [null],
      [[[]]],
      { '': '' },
      { __proto__: { polluted: true } },
      JSON.parse('{"__proto__":{"polluted":true}}'),
      { constructor: { prototype: { polluted: true } } },
    ),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(50, 500, 3_000).chain((depth) => fc.constantFrom(nested(depth, 'array'), nested(depth, 'object'))) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...knownBadStrings), { minLength: 100, maxLength: 2_000 }) },
);

/** Raw request bodies that are not the JSON object a route takes, or barely are. */
export const hostileBodyText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '[]',
    '[{}]',
    '"a string"',
    '1',
    'null',
    'true',
    '{',
    '{"a":',
    'not json',
    '\u0000',
    '{"a":1}{"b":2}',
    '{"a":1,"a":2}',
    '{"__proto__":{"isAdmin":true}}',
    '\ufeff{}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"a":1e400}',
    '{"a":-1e400}',
    '{"a":123456789012345678901234567890}',
  ),
  fc.constantFrom(1_000, 20_000, 200_000).chain((depth) => fc.constantFrom(deeplyNestedJson(depth, 'array'), deeplyNestedJson(depth, 'object'))),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

/** Path segments that cannot be any record's id, percent-encoded as a client would send them. */
export const hostilePathSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '%00',
    'kw_%00',
    '%E0%A4%A',
    '%',
    '%FF',
    '%ED%A0%80',
    '%C0%AF',
    'k'.repeat(3000),
    '%F0%9F%98%80',
    '..%2F..%2Fetc%2Fpasswd',
    '..',
    '.',
    "1'%20OR%20'1'%3D'1",
    '1%3B%20drop%20table%20keywords',
    '%20',
    'null',
    '-1',
    '0',
    '1e400',
    '9007199254740993',
    '1.5',
    '0x10',
    'kw_01jd8x3m5c2v7q9r4t6w8y0z1a',
  ),
  hostileString.filter((text) => text.length < 2_000).map(percentEncoded),
);

/** Percent-encodes every UTF-8 byte, so any string travels in a path segment or query value as is. */
export function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

/** Query and body field names a route does not take, some of which poison a careless object merge. */
export const unknownFieldName = fc.constantFrom('foo', 'LIMIT', 'Id', '__proto__', 'constructor', 'toString', 'a\u0000', '', ' ', '$where', 'workspaceId');
