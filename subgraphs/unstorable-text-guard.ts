import type { ApolloServerPlugin } from '@apollo/server';
import { BREAK, type DocumentNode, type GraphQLError, Kind, type ValueNode, visit } from 'graphql';
import { domainError } from './domain-error.ts';
import { unstorableText, unstorableTextProblem } from './validate-input.ts';

/** Where a string in a literal cannot be stored, and why. */
type Unstorable = { path: string[]; problem: string };

function unstorableInLiteral(node: ValueNode, path: string[]): Unstorable | null {
  if (node.kind === Kind.STRING) {
    const problem = unstorableTextProblem(node.value);
    return problem ? { path, problem } : null;
  }
  if (node.kind === Kind.LIST) {
    for (const [index, value] of node.values.entries()) {
      const found = unstorableInLiteral(value, [...path, String(index)]);
      if (found) return found;
    }
  }
  if (node.kind === Kind.OBJECT) {
    for (const field of node.fields) {
      const found = unstorableInLiteral(field.value, [...path, field.name.value]);
      if (found) return found;
    }
  }
  return null;
}

/** The inline argument (`id`) of a document holding a string that cannot be stored, or null. */
function unstorableLiteral(document: DocumentNode): Unstorable | null {
  let found: Unstorable | null = null;
  visit(document, {
    Argument(node) {
      found = unstorableInLiteral(node.value, [node.name.value]);
      return found ? BREAK : undefined;
    },
  });
  return found;
}

// Apollo Server keeps one parsed document per query text, so each is walked once, not on every request.
const literalsChecked = new WeakMap<DocumentNode, Unstorable | null>();

/** The variable (`input.term`) or inline argument (`id`) of an operation holding a string that cannot be stored, or null. */
function unstorableArgument(document: DocumentNode, variables: Record<string, unknown> | undefined): Unstorable | null {
  const inVariables = unstorableText(variables ?? {});
  if (inVariables) return inVariables;
  let inLiterals = literalsChecked.get(document);
  if (inLiterals === undefined) {
    inLiterals = unstorableLiteral(document);
    literalsChecked.set(document, inLiterals);
  }
  return inLiterals;
}

/**
 * PostgreSQL cannot store U+0000, nor a lone surrogate in jsonb: a string
 * with one would fail in the database as an internal error, after whatever
 * the resolver did before. Refusing the whole operation up front makes it
 * the caller's `validation_error`, whichever resolver and argument it was
 * meant for.
 */
export function unstorableTextError(document: DocumentNode, variables: Record<string, unknown> | undefined): GraphQLError | null {
  const found = unstorableArgument(document, variables);
  if (found === null) return null;
  const field = found.path.join('.');
  return domainError('validation_error', `${field}: ${found.problem}`, { field, http: { status: 400 } });
}

/** `unstorableTextError` as an Apollo Server plugin: checked once the operation is parsed and valid, before any resolver runs. */
export const refuseUnstorableText: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ document, request }) {
        const error = unstorableTextError(document, request.variables);
        if (error) throw error;
      },
    };
  },
};
