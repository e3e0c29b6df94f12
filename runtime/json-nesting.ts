/**
 * How deep a JSON value may nest in a request (a REST or compatibility API
 * body, GraphQL variables). Earshot's own inputs nest four levels at most;
 * a value nested a hundred thousand levels fits in the body limit and
 * overflows the call stack of whatever walks it by recursion (zod, GraphQL's
 * coercion, the gateway's subgraph requests), so it is refused on arrival.
 */
export const maxJsonNesting = 32;

/** Whether objects and arrays nest in `value` deeper than `limit`, walked with a list of its own so that the check cannot overflow the stack either. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth === limit) return true;
    for (const inner of Object.values(next.value)) pending.push({ value: inner, depth: next.depth + 1 });
  }
  return false;
}
