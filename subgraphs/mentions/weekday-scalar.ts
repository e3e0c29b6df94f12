import { GraphQLScalarType, Kind } from 'graphql';

/**
 * A weekly rule's day as a caller writes it: a name or a number. The scalar
 * only lets either through; the rule's input schema checks and names the day,
 * so GraphQL and REST callers read the same refusal.
 */
export const WeekdayScalar = new GraphQLScalarType<string | number, string>({
  name: 'Weekday',
  description: 'A day of the week: `monday` … `sunday`, or 0 to 7 (0 and 7 Sunday, 1 Monday)',
  serialize: (value) => String(value),
  parseValue(value) {
    if (typeof value !== 'string' && typeof value !== 'number') throw new TypeError('Weekday must be a day name or a number 0 to 7');
    return value;
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING || ast.kind === Kind.ENUM) return ast.value;
    if (ast.kind === Kind.INT) return Number(ast.value);
    throw new TypeError('Weekday must be a day name or a number 0 to 7');
  },
});
