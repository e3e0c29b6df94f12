import SchemaBuilder, { type EnumRef, type InputObjectRef, type ObjectRef } from '@pothos/core';
import DirectivePlugin from '@pothos/plugin-directives';
import FederationPlugin from '@pothos/plugin-federation';
import { DateTimeScalar } from './date-time-scalar.ts';
import type { SubgraphContext } from './subgraph-server.ts';

export interface PothosTypes {
  Context: SubgraphContext;
  Scalars: { DateTime: { Input: Date; Output: Date | string }; JSON: { Input: unknown; Output: unknown }; Weekday: { Input: string | number; Output: string } };
  DefaultFieldNullability: false;
}

/** A fresh Pothos builder with the federation plugin, for the subgraphs written with Pothos. */
export function createPothosBuilder() {
  const builder = new SchemaBuilder<PothosTypes>({
    plugins: [DirectivePlugin, FederationPlugin],
    defaultFieldNullability: false,
  });
  builder.addScalarType('DateTime', DateTimeScalar);
  return builder;
}

export type PothosBuilder = ReturnType<typeof createPothosBuilder>;

/** A Pothos object type of this builder whose resolvers receive `Shape`, for schema modules that extend a type another one defines. */
export type PothosObjectRef<Shape> = ObjectRef<PothosSchemaTypes.ExtendDefaultTypes<PothosTypes>, Shape>;

/** Likewise an input type, for schema modules whose fields take an input another one defines. */
export type PothosInputRef<Shape> = InputObjectRef<PothosSchemaTypes.ExtendDefaultTypes<PothosTypes>, Shape>;

/** Likewise an enum type. */
export type PothosEnumRef<Value> = EnumRef<PothosSchemaTypes.ExtendDefaultTypes<PothosTypes>, Value>;

/** The printed subgraph schema of a builder, with the federation 2.6 link. */
export function toSubgraphSchema(builder: PothosBuilder) {
  return builder.toSubGraphSchema({ linkUrl: 'https://specs.apollo.dev/federation/v2.6' });
}
