import type { ApolloServerPlugin } from '@apollo/server';
import { BREAK, type DocumentNode, type GraphQLError, Kind, type ValueNode, visit } from 'graphql';
import { domainError } from './domain-error.ts';
import { pathOfNulCharacter } from './validate-input.ts';

function pathInLiteral(node: ValueNode, path: string[]): string[] | null {
  if (node.kind === Kind.STRING) return node.value.includes('\u0000') ? path : null;
  if (node.kind === Kind.LIST) {
    for (const [index, value] of node.values.entries()) {
      const found = pathInLiteral(value, [...path, String(index)]);
      if (found) return found;
    }
  }
  if (node.kind === Kind.OBJECT) {
    for (const field of node.fields) {
      const found = pathInLiteral(field.value, [...path, field.name.value]);
      if (found) return found;
    }
  }
  return null;
}

/** The inline argument (`id`) of a document whose text holds U+0000, or null. */
function literalWithNulCharacter(document: DocumentNode): string | null {
  let found: string[] | null = null;
  visit(document, {
    Argument(node) {
      found = pathInLiteral(node.value, [node.name.value]);
      return found ? BREAK : undefined;
    },
  });
  return found ? (found as string[]).join('.') : null;
}

// Apollo Server keeps one parsed document per query text, so each is walked once, not on every request.
const literalsChecked = new WeakMap<DocumentNode, string | null>();

/** The variable (`input.term`) or inline argument (`id`) of an operation whose text holds U+0000, or null. */
function fieldWithNulCharacter(document: DocumentNode, variables: Record<string, unknown> | undefined): string | null {
  const inVariables = pathOfNulCharacter(variables ?? {});
  if (inVariables) return inVariables.join('.');
  let inLiterals = literalsChecked.get(document);
  if (inLiterals === undefined) {
    inLiterals = literalWithNulCharacter(document);
    literalsChecked.set(document, inLiterals);
  }
  return inLiterals;
}

/**
 * PostgreSQL text cannot hold U+0000: a string with one would fail in the
 * database as an internal error, after whatever the resolver did before.
 * Refusing the whole operation up front makes it the caller's
 * `validation_error`, whichever resolver and argument it was meant for.
 */
export function nulCharacterError(document: DocumentNode, variables: Record<string, unknown> | undefined): GraphQLError | null {
  const field = fieldWithNulCharacter(document, variables);
  if (field === null) return null;
  return domainError('validation_error', `${field}: must not contain NUL characters`, { field, http: { status: 400 } });
}

/** `nulCharacterError` as an Apollo Server plugin: checked once the operation is parsed and valid, before any resolver runs. */
export const refuseNulCharacters: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ document, request }) {
        const error = nulCharacterError(document, request.variables);
        if (error) throw error;
      },
    };
  },
};
