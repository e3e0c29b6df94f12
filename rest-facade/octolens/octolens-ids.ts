/**
 * The integer ids of the compatibility API (spec 4.8: given when first
 * shown) are GraphQL `Int`s, at most nine digits here. Octolens takes any
 * safe integer for an id; one we never give names nothing, as an unknown
 * id does, rather than failing as a number too large for the operation.
 */
const givenId = /^[1-9]\d{0,8}$/;

/** An integer id in a path or a query: anything else names nothing (0: a 404, or a filter matching nothing). */
export const integerId = (text: string): number => (givenId.test(text) ? Number(text) : 0);

/** A number sent as an id in a body (any safe integer, as Octolens takes them): itself when we could have given it, else 0, which names nothing. */
export const givenIdOf = (id: number): number => integerId(String(id));
