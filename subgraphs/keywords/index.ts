import { createPothosBuilder, toSubgraphSchema } from '../pothos-builder.ts';
import { addKeywordType } from './keyword.ts';

/** The keywords subgraph: keywords, groups, filters and the company profile. */
export function buildKeywordsSchema() {
  const builder = createPothosBuilder();
  builder.queryType({});
  addKeywordType(builder);
  return toSubgraphSchema(builder);
}
