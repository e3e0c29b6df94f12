/**
 * What graphql-js's refusal of a variable it cannot coerce says: the input
 * field it concerns and the reason. The field is written as the subgraphs
 * name the fields of their inputs: from inside the variable (`$input` at
 * `input.cap.mentions` is `cap.mentions`), list positions as `.1`, an
 * unknown or missing field by its own name; null for a variable refused as
 * a whole. Undefined for any other message.
 */
export function variableCoercion(message: string): { field: string | null; reason: string } | undefined {
  const coercion = /^Variable "\$\w+" got invalid value .*?(?: at "\w+\.([^"]+)")?; (.*)$/s.exec(message);
  if (!coercion) return undefined;
  const [, at, reason] = coercion;
  const named = /^Field "([^"]+)"/.exec(reason)?.[1];
  const path = at?.replace(/\[(\d+)\]/g, '.$1');
  const field = path ? (named && !path.endsWith(named) ? `${path}.${named}` : path) : (named ?? null);
  return { field, reason };
}
