import { createPothosBuilder, toSubgraphSchema } from '../pothos-builder.ts';
import { addMentionType } from './mention.ts';

/** The mentions subgraph: mentions, people, alert rules and the live `mentionCreated` subscription. */
export function buildMentionsSchema() {
  const builder = createPothosBuilder();
  builder.queryType({});
  builder.mutationType({});
  builder.subscriptionType({});
  addMentionType(builder);
  return toSubgraphSchema(builder);
}
