import type { KeywordDirectory } from '../keyword-directory.ts';
import { keywordIdsOutsideWorkspace, keywordTermsOfWorkspace } from './keyword-store.ts';

/** This subgraph's answers to what the mentions subgraph asks of keywords. */
export const keywordDirectory: KeywordDirectory = {
  idsOutsideWorkspace: keywordIdsOutsideWorkspace,
  termsOfWorkspace: keywordTermsOfWorkspace,
};
