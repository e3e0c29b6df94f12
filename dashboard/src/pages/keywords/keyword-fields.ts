import { graphql } from '../../graphql';

/** What says whether a keyword runs (spec 3.1), in the list and on its page. */
export const KeywordRunStateFields = graphql(`
  fragment KeywordRunState on Keyword {
    id
    term
    kind
    muted
    pausedForBalance
    pausedForNoise
    pausedForCap
    stats { health mentions relevant last7d thisMonth noise { scored relevant noisy } cost { keywordDays keywordCents billableMentions mentionCents totalCents } }
  }
`);

/** Every setting of spec 2.1 the editor shows and writes back. */
export const KeywordSettingsFields = graphql(`
  fragment KeywordSettings on Keyword {
    ...KeywordRunState
    context
    platforms
    group { id name }
    cap { mentions per used welcome own ownPer resumesAt }
    comments { enabled maxPerPost }
    feeds { url title connectedAt }
    reviewSources { platform id url countries language connectedAt }
    matching {
      requiredTerms
      requiredMode
      excludedTerms
      excludedAuthors
      caseSensitive
      exactPhrase
      subreddits { only excluded }
      repositories { events minStars minWeeklyStars }
    }
  }
`);

export const KeywordPageDocument = graphql(`
  query KeywordPage($id: ID!) {
    keyword(id: $id) {
      ...KeywordSettings
      polling { platform lastPolledAt emptyPolls lastError lastErrorAt }
    }
    groups { id name }
    keywordHealth(id: $id, days: 30) {
      status
      reasons
      window { from to days }
      stats {
        matches
        relevant
        filtered
        unscored
        noiseShare
        workspaceShare
        judgedSince
        byPlatform { platform matches relevant filtered unscored noiseShare }
      }
    }
    keywordSuggestions(id: $id) {
      type
      values
      why
      patch
      source
      effect { noiseRemoved relevantRemoved centsSaved exact sample { noiseRemoved noise relevantRemoved relevant } }
    }
  }
`);

export const UpdateKeywordDocument = graphql(`
  mutation UpdateKeyword($id: ID!, $input: KeywordPatchInput!) {
    updateKeyword(id: $id, input: $input) { ...KeywordSettings }
  }
`);

export const DeleteKeywordDocument = graphql(`
  mutation DeleteKeyword($id: ID!) {
    deleteKeyword(id: $id)
  }
`);
