import { createPothosBuilder, toSubgraphSchema } from '../pothos-builder.ts';
import { addCompanyProfileSchema } from './company-profile.ts';
import { addGroupSchema } from './group.ts';
import { addKeywordMutations, addKeywordType } from './keyword.ts';
import { addKeywordEnums } from './keyword-graphql-enums.ts';
import { addKeywordInputs } from './keyword-graphql-inputs.ts';
import { addKeywordHealthReportSchema } from './keyword-health-report.ts';
import { addKeywordSuggestionSchema } from './keyword-suggestions.ts';
import { addWorkspaceFiltersSchema } from './workspace-filters.ts';

/** The keywords subgraph: keywords, groups, filters and the company profile. */
export function buildKeywordsSchema() {
  const builder = createPothosBuilder();
  builder.queryType({});
  builder.mutationType({});
  const enums = addKeywordEnums(builder);
  const { Keyword } = addKeywordType(builder, enums);
  addKeywordMutations(builder, Keyword, addKeywordInputs(builder, enums));
  addKeywordHealthReportSchema(builder, enums, Keyword);
  addKeywordSuggestionSchema(builder);
  addGroupSchema(builder);
  addWorkspaceFiltersSchema(builder);
  addCompanyProfileSchema(builder);
  return toSubgraphSchema(builder);
}
