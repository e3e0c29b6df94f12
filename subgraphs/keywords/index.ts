import { createPothosBuilder, toSubgraphSchema } from '../pothos-builder.ts';
import { addKeywordMutations, addKeywordType } from './keyword.ts';
import { addKeywordEnums } from './keyword-graphql-enums.ts';
import { addKeywordInputs } from './keyword-graphql-inputs.ts';

/** The keywords subgraph: keywords, groups, filters and the company profile. */
export function buildKeywordsSchema() {
  const builder = createPothosBuilder();
  builder.queryType({});
  builder.mutationType({});
  const enums = addKeywordEnums(builder);
  const { Keyword } = addKeywordType(builder, enums);
  addKeywordMutations(builder, Keyword, addKeywordInputs(builder, enums));
  return toSubgraphSchema(builder);
}
