import { useEffect, useState } from 'preact/hooks';
import { graphql } from '../graphql';
import { execute } from './graphql-client';

const KeywordChoicesDocument = graphql(`
  query KeywordChoices($after: String) {
    keywords(first: 100, after: $after) { nodes { id term } nextCursor }
  }
`);

export interface KeywordChoice {
  id: string;
  term: string;
}

/**
 * Every keyword of the workspace, for a picker (the inbox's filter, an alert
 * rule's keywords): read a page of 100 at a time to the end, since a picker
 * that offered only the first page could neither show nor pick the others.
 */
export function useKeywordChoices(): { keywords: KeywordChoice[] | undefined; error: unknown } {
  const [keywords, setKeywords] = useState<KeywordChoice[]>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let left = false;
    const readAll = async () => {
      const all: KeywordChoice[] = [];
      let after: string | null | undefined;
      do {
        const { keywords: page } = await execute(KeywordChoicesDocument, { after });
        all.push(...page.nodes);
        after = page.nextCursor;
      } while (after && !left);
      return all;
    };
    readAll().then(
      (all) => !left && setKeywords(all),
      (failure) => !left && setError(failure),
    );
    return () => {
      left = true;
    };
  }, []);
  return { keywords, error };
}
