import fc from 'fast-check';
import { hostileValue, unknownFieldName } from './hostile-values.ts';

/**
 * fast-check arbitraries built from JSON Schema (the dialect `openapi.json`
 * and the MCP tool list are written in, by zod): values the schema accepts,
 * values one step outside it (a bound crossed by one, a wrong type, an
 * unknown or missing field), and values with something hostile in one place.
 */

export type JsonSchema = Record<string, any>;

export interface SchemaContext {
  /** The document's named schemas, for `$ref`. */
  components?: Record<string, JsonSchema>;
  /** Real ids worth sending in a field of this name (`id`, `keywordIds`, …), so that valid requests reach stored records. */
  idsFor(name: string): readonly (string | number)[];
}

/** How far a generated value strays from its schema. */
export type Stray = 'valid' | 'near-valid' | 'hostile';

/** Longest string or list a valid value gets when the schema allows more, so valid requests stay cheap. */
const cheapLength = 24;
const cheapItems = 4;

export function resolveSchema(schema: JsonSchema | undefined, context: SchemaContext): JsonSchema {
  if (!schema) return {};
  if (schema.$ref) return resolveSchema(context.components?.[String(schema.$ref).split('/').pop()!], context);
  return schema;
}

/**
 * The alternatives of an `anyOf` or `oneOf`, each a whole schema. Options
 * beside a `type` or `properties` of their own only narrow that base (a
 * channel's kinds, each with the field it needs and no other kind's fields):
 * each is merged into it, its `propertyNames` keeping the properties it names.
 */
function alternativesOf(schema: JsonSchema): JsonSchema[] | undefined {
  const options: JsonSchema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (!options || !(schema.type || schema.properties)) return options;
  const { anyOf: _anyOf, oneOf: _oneOf, ...base } = schema;
  return options.map((option) => {
    const allowed: string[] | undefined = option.propertyNames?.enum;
    const properties = { ...base.properties, ...option.properties };
    return {
      ...base,
      ...option,
      properties: allowed ? Object.fromEntries(Object.entries(properties).filter(([name]) => allowed.includes(name))) : properties,
      required: [...new Set([...(base.required ?? []), ...(option.required ?? [])])],
    };
  });
}

export const isIdName = (name: string | undefined) => !!name && /(^ids?$|Id$|Ids$|^sourceId$)/.test(name);

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

/** Whether fast-check can generate strings for a pattern (it reads most, but not lookarounds or Unicode properties). */
function matchable(pattern: string): boolean {
  try {
    fc.sample(fc.stringMatching(new RegExp(pattern)), 1);
    return true;
  } catch {
    return false;
  }
}

function validString(schema: JsonSchema, name: string | undefined, context: SchemaContext): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, cheapLength);
  const fits = (text: string) => text.length >= minLength && text.length <= maxLength;
  const ids = isIdName(name) ? context.idsFor(name!).filter((id): id is string => typeof id === 'string') : [];
  let generated: fc.Arbitrary<string>;
  if (schema.format === 'date-time') {
    generated = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString());
  } else if (schema.format === 'date') {
    generated = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
  } else if (schema.format === 'uri') {
    generated = fc.tuple(fc.constantFrom('https://example.com', 'https://news.example.org', 'http://93.184.215.14'), fc.stringMatching(/^[a-z0-9/]{0,12}$/)).map(([base, path]) => `${base}/${path}`);
  } else if (schema.pattern && matchable(schema.pattern)) {
    generated = fc.stringMatching(new RegExp(schema.pattern));
  } else if (schema.format === 'email') {
    generated = fc.stringMatching(/^[a-z]{1,8}@[a-z]{1,8}\.example$/);
  } else {
    generated = fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, cheapLength)) });
  }
  generated = generated.filter(fits);
  return ids.length ? fc.oneof(fc.constantFrom(...ids), generated) : generated;
}

function validNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : Number.EPSILON) : schema.minimum;
  const high = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : Number.EPSILON) : schema.maximum;
  const min = Math.max(low ?? -1_000, Number.MIN_SAFE_INTEGER);
  const max = Math.min(high ?? Math.max(min + 1_000, 1_000), Number.MAX_SAFE_INTEGER);
  const bounds = fc.constantFrom(...new Set([min, max]));
  return integer
    ? fc.oneof(bounds, fc.integer({ min: Math.ceil(min), max: Math.floor(max) }))
    : fc.oneof(bounds, fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
}

function validObject(schema: JsonSchema, context: SchemaContext, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const record = fc.record(
    Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, validValue(property, context, name, depth + 1)])),
    { requiredKeys: [...required].filter((name) => name in properties) },
  );
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    const names = schema.propertyNames ? validString({ ...schema.propertyNames, type: 'string' }, undefined, context) : fc.string({ minLength: 1, maxLength: 12 });
    const extra = fc.dictionary(names, validValue(schema.additionalProperties, context, undefined, depth + 1), { maxKeys: 3 });
    return fc.tuple(record, extra).map(([known, more]) => ({ ...more, ...known }));
  }
  return record;
}

/** A value the schema accepts; an id-named string field also takes the real ids the context knows. */
export function validValue(rawSchema: JsonSchema | undefined, context: SchemaContext, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolveSchema(rawSchema, context);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const options = alternativesOf(schema);
  if (options) return fc.oneof(...options.map((option: JsonSchema) => validValue(option, context, name, depth)));
  if (depth > 6) return fc.constant(null);
  const arbitraries = typesOf(schema).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'string':
        return validString(schema, name, context);
      case 'integer':
      case 'number': {
        const numbers = validNumber(schema, type === 'integer');
        const ids = isIdName(name) ? context.idsFor(name!).filter((id): id is number => typeof id === 'number') : [];
        return ids.length ? fc.oneof(fc.constantFrom(...ids), numbers) : numbers;
      }
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(validValue(schema.items, context, name, depth + 1), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? cheapItems, cheapItems)),
        });
      case 'object':
        return validObject(schema, context, depth);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  });
  return arbitraries.length ? fc.oneof(...arbitraries) : fc.jsonValue({ maxDepth: 2 });
}

/** Values one step outside the schema: the bound crossed by one, the wrong type, the enum value misspelt. */
export function violatingValue(rawSchema: JsonSchema | undefined, context: SchemaContext, name?: string): fc.Arbitrary<unknown> {
  const schema = resolveSchema(rawSchema, context);
  const wrongTypes = fc.constantFrom<unknown>(null, true, 0, 1.5, '1', [], {}, ['a'], { a: 1 });
  const candidates: fc.Arbitrary<unknown>[] = [wrongTypes];
  if (schema.enum) candidates.push(fc.constantFrom(...schema.enum.map((value: unknown) => `${value}_`), ...schema.enum.map((value: unknown) => String(value).toUpperCase() + ' ')));
  const types = typesOf(schema);
  if (types.includes('string')) {
    if (schema.maxLength !== undefined) candidates.push(fc.constant('x'.repeat(schema.maxLength + 1)));
    if (schema.minLength) candidates.push(fc.constant('x'.repeat(schema.minLength - 1)));
    if (schema.pattern || schema.format) candidates.push(validString(schema, name, context).map((text) => `${text}\n!`), fc.constantFrom('2028-13-45T99:00:00Z', 'not-a-url', 'a@', ' '));
  }
  if (types.includes('integer') || types.includes('number')) {
    const low = schema.exclusiveMinimum ?? (schema.minimum !== undefined ? schema.minimum - 1 : undefined);
    const high = schema.exclusiveMaximum ?? (schema.maximum !== undefined ? schema.maximum + 1 : undefined);
    candidates.push(fc.constantFrom(...[low, high, 2 ** 53, -(2 ** 53), 1e308].filter((value) => value !== undefined)));
    if (types.includes('integer')) candidates.push(fc.constantFrom(0.5, 1.0000001));
  }
  if (types.includes('array')) {
    if (schema.maxItems !== undefined) candidates.push(fc.array(validValue(schema.items, context, name, 1), { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 1 }));
    candidates.push(fc.array(violatingValue(schema.items, context, name), { minLength: 1, maxLength: 2 }), fc.constant('a,b'));
  }
  if (types.includes('object')) candidates.push(nearValidObject(schema, context));
  return fc.oneof(...candidates);
}

/** A valid object but for one thing: a field one step outside its schema, a required field missing, or a field the schema does not have. */
function nearValidObject(schema: JsonSchema, context: SchemaContext): fc.Arbitrary<unknown> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const names = Object.keys(properties);
  const valid = validObject(schema, context, 0);
  const changes: fc.Arbitrary<unknown>[] = [fc.tuple(valid, unknownFieldName, fc.jsonValue({ maxDepth: 1 })).map(([object, field, value]) => ({ ...object, [field]: value }))];
  if (names.length) {
    changes.push(
      fc.tuple(valid, fc.constantFrom(...names)).chain(([object, field]) =>
        violatingValue(properties[field], context, field).map((value) => ({ ...object, [field]: value })),
      ),
    );
  }
  const required: string[] = (schema.required ?? []).filter((field: string) => field in properties);
  if (required.length) {
    changes.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([object, field]) => {
        const { [field]: _dropped, ...rest } = object;
        return rest;
      }),
    );
  }
  return fc.oneof(...changes);
}

/** A valid value with something hostile in one place: the whole value, or one field of an object at any depth. */
export function hostileAt(rawSchema: JsonSchema | undefined, context: SchemaContext, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolveSchema(rawSchema, context);
  const properties: Record<string, JsonSchema> = schema.properties ?? (schema.anyOf ?? []).map((option: JsonSchema) => resolveSchema(option, context)).find((option: JsonSchema) => option.properties)?.properties ?? {};
  const names = Object.keys(properties);
  if (!names.length || depth > 3) return hostileValue;
  return fc.oneof(
    { weight: 1, arbitrary: hostileValue },
    {
      weight: 3,
      arbitrary: fc
        .tuple(validObject({ ...schema, properties }, context, 0), fc.constantFrom(...names))
        .chain(([object, field]) => hostileAt(properties[field], context, depth + 1).map((value) => ({ ...object, [field]: value }))),
    },
  );
}

/** Values of the schema straying as far as `stray` says. */
export function strayingValue(schema: JsonSchema | undefined, context: SchemaContext, stray: Stray, name?: string): fc.Arbitrary<unknown> {
  if (stray === 'valid') return validValue(schema, context, name);
  if (stray === 'near-valid') return violatingValue(schema, context, name);
  return hostileAt(schema, context);
}

/** Any of the three, weighted towards what reaches the domain (valid and near-valid) over what the edge refuses. */
export const stray: fc.Arbitrary<Stray> = fc.constantFrom<Stray>('valid', 'valid', 'near-valid', 'near-valid', 'hostile', 'hostile', 'hostile');

/**
 * The simplest value the schema accepts, always the same: required fields
 * only, the first enum value, the lower bound. An id-named string takes the
 * first id the context offers. For requests that must pass validation so
 * that something else about them is what gets judged.
 */
export function minimalValue(rawSchema: JsonSchema | undefined, context: SchemaContext, name?: string): unknown {
  const schema = resolveSchema(rawSchema, context);
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  const options = alternativesOf(schema);
  if (options) return minimalValue(options.find((option) => resolveSchema(option, context).type !== 'null') ?? options[0], context, name);
  const type = typesOf(schema).find((each) => each !== 'null') ?? typesOf(schema)[0];
  switch (type) {
    case 'string': {
      const id = isIdName(name) ? context.idsFor(name!).find((each) => typeof each === 'string') : undefined;
      if (id !== undefined) return id;
      const fits = (text: string) => text.length >= (schema.minLength ?? 0) && text.length <= (schema.maxLength ?? Infinity);
      const candidates = fc.sample(validString(schema, undefined, context), { seed: 1, numRuns: 50 });
      return candidates.find((text) => fits(text) && text.trim() !== '') ?? candidates.find(fits) ?? 'x'.repeat(schema.minLength ?? 1);
    }
    case 'integer':
    case 'number': {
      const id = isIdName(name) ? context.idsFor(name!).find((each) => typeof each === 'number') : undefined;
      if (id !== undefined) return id;
      const low = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : schema.minimum;
      return low ?? Math.min(1, schema.maximum ?? 1);
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => minimalValue(schema.items, context, name));
    case 'object': {
      const properties: Record<string, JsonSchema> = schema.properties ?? {};
      return Object.fromEntries(((schema.required ?? []) as string[]).filter((field) => field in properties).map((field) => [field, minimalValue(properties[field], context, field)]));
    }
    default:
      return null;
  }
}

/** Where an id goes in a value of the schema: the field names from the top, `[]` for the items of a list. */
export type JsonIdSlot = string[];

/** Every id-named field of an object schema, at any depth (through lists, `$ref`s and the object options of `anyOf`). */
export function jsonIdSlots(rawSchema: JsonSchema | undefined, context: SchemaContext, path: string[] = [], depth = 0): JsonIdSlot[] {
  const schema = resolveSchema(rawSchema, context);
  if (depth > 4) return [];
  const options = alternativesOf(schema) ?? [];
  if (options.length) return [...new Map(options.flatMap((option) => jsonIdSlots(option, context, path, depth)).map((slot) => [slot.join('.'), slot])).values()];
  if (typesOf(schema).includes('array')) return jsonIdSlots(schema.items, context, [...path, '[]'], depth + 1);
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).flatMap(([name, property]) => {
    const inner = resolveSchema(property, context);
    const scalar = typesOf(inner).some((type) => type === 'string' || type === 'integer') && !inner.properties;
    if (isIdName(name) && (scalar || typesOf(inner).includes('array'))) return [typesOf(inner).includes('array') ? [...path, name, '[]'] : [...path, name]];
    return jsonIdSlots(inner, context, [...path, name], depth + 1);
  });
}

/** A copy of `value` with `id` at the slot (inside a list, as its one item), creating the objects on the way. */
export function withIdAt(value: unknown, slot: JsonIdSlot, id: unknown): unknown {
  if (!slot.length) return id;
  const [step, ...rest] = slot;
  if (step === '[]') return [withIdAt(Array.isArray(value) ? value[0] : undefined, rest, id)];
  const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { ...object, [step]: withIdAt(object[step], rest, id) };
}
