/**
 * Many MCP clients (language-model hosts, strict function-calling modes
 * among them) send `null` for an optional argument they do not use. A tool
 * takes such a null as the argument left out: its listed schema admits null
 * for every optional argument, nested ones and those of list items included,
 * and the null is dropped before the arguments are checked. An argument
 * whose own schema already takes null (a keyword's `context`, where null
 * clears it) keeps its meaning, so only a call that would otherwise be
 * refused changes answer.
 */

/** The part of JSON Schema that a zod input schema's `toJSONSchema` output uses here. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  [keyword: string]: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether a schema takes null: no constraint at all, a null type, or a branch taking it. */
function admitsNull(schema: JsonSchema): boolean {
  if (schema.const !== undefined) return schema.const === null;
  if (schema.enum) return schema.enum.includes(null);
  if (schema.type !== undefined) return schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'));
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.some(admitsNull);
  return true;
}

const isOptional = (parent: JsonSchema, name: string) => !parent.required?.includes(name);

/** The schema with every optional property that refuses null made to take it (null: as if left out), the description kept on the property. */
export function admittingOptionalNulls(schema: JsonSchema): JsonSchema {
  const widened: JsonSchema = { ...schema };
  if (schema.properties) {
    widened.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => {
        const inner = admittingOptionalNulls(property);
        if (!isOptional(schema, name) || admitsNull(property)) return [name, inner];
        const { description, ...rest } = inner;
        return [name, { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: 'null' }] }];
      }),
    );
  }
  if (schema.items) widened.items = admittingOptionalNulls(schema.items);
  if (schema.anyOf) widened.anyOf = schema.anyOf.map(admittingOptionalNulls);
  if (schema.oneOf) widened.oneOf = schema.oneOf.map(admittingOptionalNulls);
  return widened;
}

/** The first branch of a schema (itself when it has none) that describes a value of this JSON type. */
function branchFor(schema: JsonSchema, value: unknown): JsonSchema | undefined {
  const fits = (each: JsonSchema) => (Array.isArray(value) ? each.items !== undefined : each.properties !== undefined);
  if (fits(schema)) return schema;
  return (schema.anyOf ?? schema.oneOf)?.find(fits);
}

/**
 * The arguments without the nulls sent for optional arguments that refuse
 * null, by the schema as `toJSONSchema` wrote it (before
 * `admittingOptionalNulls`). The arguments were checked for depth already,
 * so the walk is bounded.
 */
export function withoutOptionalNulls(value: unknown, schema: JsonSchema): unknown {
  const described = branchFor(schema, value);
  if (!described) return value;
  if (Array.isArray(value)) return value.map((item) => withoutOptionalNulls(item, described.items!));
  if (!isObject(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const property = described.properties![name];
    // An unknown name is kept, for the check to refuse.
    if (!property) kept[name] = item;
    else if (item !== null || !isOptional(described, name) || admitsNull(property)) kept[name] = withoutOptionalNulls(item, property);
  }
  return kept;
}
