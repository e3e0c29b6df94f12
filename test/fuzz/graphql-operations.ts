import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  buildSchema,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from 'graphql';
import { hostileString, hostileValue, unknownFieldName } from './hostile-values.ts';
import type { Stray } from './schema-arbitraries.ts';

/**
 * Operations built from the committed supergraph: one per root field
 * (queries, mutations, subscriptions), each selecting what its type holds,
 * with variables that are valid, one step off, or hostile; and documents
 * that are hostile in themselves (deep, wide, cyclic, huge, broken).
 */

export const supergraph: GraphQLSchema = buildSchema(readFileSync(new URL('../../schema/supergraph.graphql', import.meta.url), 'utf8'), { assumeValidSDL: true });

export type OperationKind = 'query' | 'mutation' | 'subscription';

export interface RootField {
  kind: OperationKind;
  field: GraphQLField<unknown, unknown>;
}

export function rootFields(schema: GraphQLSchema = supergraph): RootField[] {
  const roots: [OperationKind, ReturnType<GraphQLSchema['getQueryType']>][] = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ];
  return roots.flatMap(([kind, type]) => Object.values(type?.getFields() ?? {}).map((field) => ({ kind, field })));
}

/** Every field of a type that needs no argument, to `depth` levels of objects: what a client reading it in full would select. */
export function selectionFor(type: GraphQLOutputType, depth = 2): string {
  const named = getNamedType(type) as GraphQLNamedType;
  if (isScalarType(named) || isEnumType(named)) return '';
  if (isUnionType(named) || isInterfaceType(named) || !isObjectType(named) || depth < 0) return '{ __typename }';
  const fields = Object.values(named.getFields()).filter((field) => field.args.every((arg) => !isNonNullType(arg.type)));
  const parts = fields.flatMap((field) => {
    const inner = getNamedType(field.type);
    if (isScalarType(inner) || isEnumType(inner)) return [field.name];
    return depth > 0 ? [`${field.name} ${selectionFor(field.type, depth - 1)}`] : [];
  });
  return `{ ${parts.length ? parts.join(' ') : '__typename'} }`;
}

/** The operation that calls one root field with every argument as a variable of the argument's own type. */
export function operationFor({ kind, field }: RootField): string {
  const declared = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`);
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`);
  return `${kind} ${declared.length ? `(${declared.join(', ')}) ` : ''}{ ${field.name}${passed.length ? `(${passed.join(', ')})` : ''} ${selectionFor(field.type)} }`;
}

export interface GraphQLValueContext {
  /** Real ids for ID arguments and fields (`id`, `keywordIds`). */
  ids: readonly string[];
  /** The compatibility API's integer ids, for Int arguments named `id`. */
  integerIds: readonly number[];
}

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

function validScalar(name: string, argName: string, context: GraphQLValueContext): fc.Arbitrary<unknown> {
  switch (name) {
    case 'ID':
      return context.ids.length ? fc.oneof(fc.constantFrom(...context.ids), fc.string({ minLength: 1, maxLength: 30 })) : fc.string({ minLength: 1 });
    case 'Int':
      return /id$/i.test(argName) && context.integerIds.length
        ? fc.oneof(fc.constantFrom(...context.integerIds), fc.integer({ min: -5, max: 200 }))
        : fc.oneof(fc.integer({ min: -5, max: 200 }), fc.integer(int32));
    case 'Float':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    case 'Boolean':
      return fc.boolean();
    case 'DateTime':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString());
    case 'String':
      return fc.string({ maxLength: 40 });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of an input type: valid, or with one thing wrong about it (`near-valid`), or with something hostile in it. */
export function inputValue(type: GraphQLInputType, how: Stray, argName: string, context: GraphQLValueContext, depth = 0): fc.Arbitrary<unknown> {
  if (how === 'hostile' && depth > 0) return fc.oneof({ weight: 1, arbitrary: hostileValue }, { weight: 3, arbitrary: inputValue(type, 'valid', argName, context, depth) });
  if (isNonNullType(type)) {
    const inner = inputValue(type.ofType, how, argName, context, depth);
    return how === 'near-valid' ? fc.oneof({ weight: 4, arbitrary: inner }, { weight: 1, arbitrary: fc.constant(null) }) : inner;
  }
  const orNull = (value: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) });
  if (isListType(type)) {
    const items = fc.array(inputValue(type.ofType, how === 'hostile' ? 'valid' : how, argName, context, depth + 1), { maxLength: how === 'near-valid' ? 60 : 4 });
    if (how === 'hostile') return fc.oneof(items, hostileValue, fc.array(hostileValue, { maxLength: 3 }));
    return orNull(items);
  }
  if (isEnumType(type)) {
    const names = type.getValues().map((value) => value.name);
    if (how === 'valid') return orNull(fc.constantFrom(...names));
    if (how === 'near-valid') return fc.oneof(fc.constantFrom(...names.map((name) => name.toLowerCase() + '_')), fc.constant(1));
    return hostileValue;
  }
  if (isScalarType(type)) {
    const valid = validScalar(type.name, argName, context);
    if (how === 'valid') return orNull(valid);
    if (how === 'near-valid') {
      const wrong: Record<string, fc.Arbitrary<unknown>> = {
        Int: fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1.5, '1', true),
        Float: fc.constantFrom('1.5', true, [1]),
        Boolean: fc.constantFrom('true', 1, 0),
        ID: fc.constantFrom(1.5, true, [], {}, ''),
        String: fc.constantFrom(1, true, [], {}),
        DateTime: fc.constantFrom('2028-13-45T99:00:00Z', 'yesterday', 0),
      };
      return wrong[type.name] ?? fc.constantFrom<unknown>({ not: 'this scalar' }, [[]], '');
    }
    return fc.oneof(hostileString, hostileValue);
  }
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    const record = fc.record(
      Object.fromEntries(fields.map((field) => [field.name, inputValue(field.type, how === 'hostile' ? 'hostile' : 'valid', field.name, context, depth + 1)])),
      { requiredKeys: fields.filter((field) => isNonNullType(field.type)).map((field) => field.name) },
    );
    if (how !== 'near-valid' || !fields.length) return record;
    return fc.oneof(
      fc.tuple(record, unknownFieldName).map(([value, extra]) => ({ ...value, [extra]: 1 })),
      fc.tuple(record, fc.constantFrom(...fields)).chain(([value, field]) =>
        inputValue(field.type, 'near-valid', field.name, context, depth + 1).map((wrong) => ({ ...value, [field.name]: wrong })),
      ),
    );
  }
  return hostileValue;
}

export function variablesFor(args: readonly GraphQLArgument[], how: Stray, context: GraphQLValueContext): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    Object.fromEntries(args.map((arg) => [arg.name, inputValue(arg.type, how, arg.name, context)])),
    { requiredKeys: how === 'valid' ? args.filter((arg) => isNonNullType(arg.type)).map((arg) => arg.name) : [] },
  );
}

const repeat = (count: number, text: (index: number) => string, separator = ' ') => Array.from({ length: count }, (_, index) => text(index)).join(separator);

/** Documents hostile in themselves: too deep, too wide, cyclic, huge, malformed, or abusing the language's corners. */
export const hostileDocument: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(20, 200, 2_000).map((depth) => `{ ${'__schema { types { fields { type { ofType { '.repeat(Math.ceil(depth / 5))}name${' } } } } }'.repeat(Math.ceil(depth / 5))} }`),
  fc.constantFrom(20, 200, 2_000).map((depth) => `query { whoami { workspace { ${'__typename '.repeat(1)}${'... on Workspace { '.repeat(depth)}id${' }'.repeat(depth)} } } }`),
  fc.constantFrom(10, 200, 5_000).map((count) => `{ ${repeat(count, (index) => `a${index}: whoami { workspace { id name wallet { balanceCents } } }`)} }`),
  fc.constantFrom(10, 1_000, 20_000).map((count) => `{ whoami { ${repeat(count, () => '__typename')} } }`),
  fc.constantFrom(10, 500, 5_000).map((count) => `{ whoami ${repeat(count, () => '@include(if: true)')} { __typename } }`),
  fc.constant('query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }'),
  fc.constant('query A { whoami { __typename } } query A { whoami { __typename } }'),
  fc.constant('query { whoami { __typename } } mutation { __typename }'),
  fc.constant('subscription { mentionCreated { id } mentionCreated2: mentionCreated { id } }'),
  fc.constant('{ keywords(first: 100) { nodes { id mentions: __typename } } mentions(first: 100) { nodes { id keyword { id term } post { text } } } }'),
  fc.constantFrom(1_000, 100_000, 900_000).map((length) => `{ keyword(id: "${'x'.repeat(length)}") { id } }`),
  fc.constantFrom(50, 500, 5_000).map((depth) => `{ keyword(id: ${'{a:'.repeat(depth)}1${'}'.repeat(depth)}) { id } }`),
  fc.constantFrom(50, 500, 5_000).map((depth) => `{ keyword(id: ${'['.repeat(depth)}${']'.repeat(depth)}) { id } }`),
  fc.constant('{ keyword(id: "\\u0000") { id } }'),
  fc.constant('{ keyword(id: "\\ud800") { id } }'),
  fc.constant('query ($id: ID!) { keyword(id: $id) { id } }'),
  fc.constant('query ($a: Int, $a: Int) { whoami { __typename } }'),
  fc.constant('{ __type(name: "Query") { fields { name args { name type { name } } } } }'),
  hostileString,
  fc.array(fc.constantFrom('{', '}', '(', ')', '[', ']', ':', '$', '...', '@', '!', '=', '|', '&', 'query', 'mutation', 'subscription', 'fragment', 'on', 'whoami', 'keyword', 'id', '"a"', '1', 'true', 'null', '#x\n', '"""', '\u0000'), { maxLength: 60 }).map((tokens) => tokens.join(' ')),
);

/** Where an id goes in a root field's arguments: an argument or an input field, at any depth, holding an `ID` or an integer id of the compatibility API. */
export interface IdSlot {
  /** The argument's name, then input field names. */
  path: string[];
  /** Whether each step of the path is a list (an id in a list is sent as a list of one). */
  lists: boolean[];
  kind: 'ID' | 'Int';
}

const isIntegerIdName = (name: string) => name === 'id' || /Id$/.test(name);

function unwrapped(type: GraphQLInputType): { named: GraphQLInputType; list: boolean } {
  let list = false;
  let inner = type;
  for (;;) {
    if (isNonNullType(inner)) inner = inner.ofType;
    else if (isListType(inner)) {
      list = true;
      inner = inner.ofType;
    } else return { named: inner, list };
  }
}

export function idSlots(field: GraphQLField<unknown, unknown>): IdSlot[] {
  const slots: IdSlot[] = [];
  const visit = (type: GraphQLInputType, path: string[], lists: boolean[], seen: Set<string>) => {
    const { named, list } = unwrapped(type);
    const here = [...lists, list];
    if (isScalarType(named)) {
      if (named.name === 'ID') slots.push({ path, lists: here, kind: 'ID' });
      if (named.name === 'Int' && isIntegerIdName(path[path.length - 1])) slots.push({ path, lists: here, kind: 'Int' });
    } else if (isInputObjectType(named) && !seen.has(named.name)) {
      for (const inner of Object.values(named.getFields())) visit(inner.type, [...path, inner.name], here, new Set([...seen, named.name]));
    }
  };
  for (const arg of field.args) visit(arg.type, [arg.name], [], new Set());
  return slots;
}

/** The simplest value of an input type: null where allowed, required input fields only, the first enum value. */
export function minimalInput(type: GraphQLInputType): unknown {
  if (!isNonNullType(type)) return null;
  const inner = type.ofType;
  if (isListType(inner)) return [];
  if (isEnumType(inner)) return inner.getValues()[0].name;
  if (isInputObjectType(inner)) {
    return Object.fromEntries(Object.values(inner.getFields()).filter((field) => isNonNullType(field.type)).map((field) => [field.name, minimalInput(field.type)]));
  }
  const scalars: Record<string, unknown> = { ID: 'isolation', String: 'isolation', Int: 1, Float: 1, Boolean: false, DateTime: '2030-01-01T00:00:00.000Z' };
  return scalars[(inner as GraphQLNamedType).name] ?? {};
}

/** The minimal variables of a root field with one slot filled (inside a list, as its one item). */
export function variablesWithSlot(field: GraphQLField<unknown, unknown>, slot: IdSlot, value: string | number): Record<string, unknown> {
  const variables: Record<string, unknown> = Object.fromEntries(field.args.map((arg) => [arg.name, minimalInput(arg.type)]));
  let holder = variables;
  for (const [index, name] of slot.path.entries()) {
    const last = index === slot.path.length - 1;
    const current = holder[name];
    const object = (Array.isArray(current) ? current[0] : current) as Record<string, unknown> | null | undefined;
    const next: Record<string, unknown> = object && typeof object === 'object' ? { ...object } : {};
    const item = last ? value : next;
    holder[name] = slot.lists[index] ? [item] : item;
    holder = next;
  }
  return variables;
}
