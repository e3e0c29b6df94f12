import { Kind, type OperationDefinitionNode } from 'graphql';

const rootTypeNames = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as const;

/**
 * Whether every root field the operation selects is one of the public ones
 * (`Mutation.receiveStripeWebhook`, …), which authenticate their callers
 * themselves: such an operation needs no credential, and one that comes
 * with it is not what lets it run.
 */
export function selectsOnlyPublicRootFields(operation: OperationDefinitionNode, publicFields: ReadonlySet<string>): boolean {
  const rootType = rootTypeNames[operation.operation];
  const selections = operation.selectionSet.selections;
  return selections.length > 0 && selections.every((selection) => selection.kind === Kind.FIELD && publicFields.has(`${rootType}.${selection.name.value}`));
}
