import { z } from 'zod';
import { type ChatCompletionSettings, requestStructuredAnswer } from '../../runtime/chat-completion.ts';
import type { Logger } from '../../runtime/logger.ts';
import { relevanceLine } from '../../vocabulary/relevance.ts';
import { type KeywordSuggestion, type MeasuredSample, type SuggestionSubject, type SuggestionType, authorEntryOf, measuredSuggestion } from './rule-suggestions.ts';
import {
  contextPatch,
  excludedAuthorsPatch,
  excludedTermsPatch,
  maxContextLength,
  platformsPatch,
  requiredTermsPatch,
  type SuggestionPatch,
} from './suggestion-patches.ts';
import type { CompanyProfileRow } from './workspace-settings-store.ts';

const suggestionTypes = ['excluded_terms', 'excluded_authors', 'required_terms', 'platforms', 'context'] as const satisfies readonly SuggestionType[];

/** The model's suggestions kept, after the rule suggestions. */
const maxAiSuggestions = 5;
/** Posts of each side shown to the model, newest first, cut to what says what a post is about. */
const shownRelevant = 20;
const shownNoise = 30;
const maxPostCharacters = 400;
/**
 * A suggestions request answers a GET, which has 4.5 s in all (the public
 * port's request deadline, after which it is a 503 saying the database is
 * not answering): the model gets what is left once the rule suggestions are
 * measured, and a later answer leaves the rule suggestions alone.
 */
const timeoutMs = 3_000;

/** The answer's JSON schema, in the subset strict structured outputs accept; `answerSchema` checks what it cannot say. */
export const suggestionsJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['suggestions'],
  properties: {
    suggestions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'values', 'why'],
        properties: {
          type: { type: 'string', enum: [...suggestionTypes] },
          values: { type: 'array', items: { type: 'string' }, description: 'What the suggestion adds (terms, authors), drops (platforms) or writes (one context sentence).' },
          why: { type: 'string', description: 'One sentence: why this change keeps relevant posts and drops noise.' },
        },
      },
    },
  },
} as const;

const answerSchema = z.object({
  suggestions: z
    .array(
      z.object({
        type: z.enum(suggestionTypes),
        values: z.array(z.string().trim().min(1).max(maxContextLength)).min(1).max(20),
        why: z.string().trim().min(1).max(500),
      }),
    )
    .max(20),
});
type ModelSuggestion = z.infer<typeof answerSchema>['suggestions'][number];

const instructions = [
  'You help tune a keyword of a brand-monitoring service. The keyword matched the posts below; a classifier scored each relevant or noise.',
  'Suggest rule changes that drop the noise and keep the relevant posts. Each suggestion has a type, values and a one-sentence why:',
  '- excluded_terms: words or short phrases found in noise posts and not in relevant ones; a post holding any is dropped. Never a word of the keyword itself.',
  '- excluded_authors: authors (written exactly as given with each post) whose posts are noise.',
  '- required_terms: words or phrases that relevant posts hold and noise posts rarely do; a post must then hold at least one of them.',
  '- platforms: platforms (as given with each post) to stop searching because they bring only noise.',
  `- context: one sentence of at most ${maxContextLength} characters telling the classifier what the keyword means for this company and what it does not mean.`,
  `A post is relevant at score ${relevanceLine} or more. Suggest only what the posts support; return an empty list when nothing would help.`,
].join('\n');

function requestMessages(sample: MeasuredSample, subject: SuggestionSubject, company: CompanyProfileRow): { role: 'system' | 'user'; content: string }[] {
  const { rules } = sample;
  const shown = (relevant: boolean, count: number) =>
    sample.kept
      .filter((match) => match.relevant === relevant)
      .slice(0, count)
      .map((match) => ({ platform: match.post.post.platform, author: authorEntryOf(match.post), text: match.post.text.slice(0, maxPostCharacters) }));
  const brief = {
    keyword: {
      term: rules.term,
      kind: subject.kind,
      context: subject.context,
      platforms: rules.platforms,
      matching: {
        requiredTerms: rules.requiredTerms,
        requiredMode: rules.requiredMode,
        excludedTerms: rules.excludedTerms,
        excludedAuthors: rules.excludedAuthors,
        caseSensitive: rules.caseSensitive,
      },
    },
    company: { name: company.name, description: company.description, website: company.website, competitors: company.competitors, guidelines: company.guidelines },
    scoredMatches: { relevant: sample.relevant, noise: sample.noise, days: sample.days },
    relevantPosts: shown(true, shownRelevant),
    noisePosts: shown(false, shownNoise),
  };
  return [
    { role: 'system', content: instructions },
    { role: 'user', content: JSON.stringify(brief) },
  ];
}

/** The keyword PATCH a model suggestion stands for, built as the rule suggestions build theirs; null when it would change nothing or break a rule. */
function patchOf(sample: MeasuredSample, subject: SuggestionSubject, suggestion: ModelSuggestion): SuggestionPatch | null {
  switch (suggestion.type) {
    case 'excluded_terms':
      return excludedTermsPatch(sample.rules, suggestion.values);
    case 'excluded_authors':
      return excludedAuthorsPatch(sample.rules, suggestion.values);
    case 'required_terms':
      return requiredTermsPatch(sample.rules, suggestion.values);
    case 'platforms':
      return platformsPatch(sample.rules, suggestion.values);
    case 'context':
      return suggestion.values.length === 1 ? contextPatch(subject.context, suggestion.values[0]) : null;
  }
}

/** What the patch adds, drops or writes, as it stores it (an author in canonical form, a term once). */
function valuesOf(sample: MeasuredSample, suggestion: ModelSuggestion, patch: SuggestionPatch): string[] {
  const added = (current: readonly string[], next: readonly string[] | undefined) => (next ?? []).filter((value) => !current.includes(value));
  switch (suggestion.type) {
    case 'excluded_terms':
      return added(sample.rules.excludedTerms, patch.matching?.excludedTerms);
    case 'excluded_authors':
      return added(sample.rules.excludedAuthors, patch.matching?.excludedAuthors);
    case 'required_terms':
      return added(sample.rules.requiredTerms, patch.matching?.requiredTerms);
    case 'context':
      return [patch.context!];
    default:
      return suggestion.values;
  }
}

/**
 * Suggestions written by the configured language model (spec 2.6, source
 * `ai`): it reads the keyword, the company profile and the newest relevant
 * and noise matches, and answers in a strict JSON schema, checked again with
 * zod. Each suggestion becomes a PATCH built and measured exactly as the
 * rule suggestions are, over the same sample; one that would change nothing
 * or break a rule is dropped. Any failure of the model (unreachable, slow,
 * an HTTP error, an answer out of schema) is logged and yields none, so the
 * rule suggestions always stand.
 */
export async function aiSuggestions(
  settings: ChatCompletionSettings,
  sample: MeasuredSample,
  subject: SuggestionSubject,
  company: CompanyProfileRow,
  log: Logger,
): Promise<KeywordSuggestion[]> {
  const answer = await requestStructuredAnswer(settings, {
    schemaName: 'keyword_suggestions',
    schema: suggestionsJsonSchema,
    messages: requestMessages(sample, subject, company),
    timeoutMs,
  });
  if (!answer.ok) {
    log.warn('language-model keyword suggestions failed; rule suggestions only', { keywordId: sample.rules.keywordId, error: answer.error });
    return [];
  }
  let parsed: z.infer<typeof answerSchema>;
  try {
    parsed = answerSchema.parse(JSON.parse(answer.content));
  } catch (error) {
    const reason = error instanceof z.ZodError ? `answer out of schema at ${error.issues[0].path.join('.') || 'root'}: ${error.issues[0].message}` : 'answer is not JSON';
    log.warn('language-model keyword suggestions failed; rule suggestions only', { keywordId: sample.rules.keywordId, error: reason });
    return [];
  }
  const suggestions: KeywordSuggestion[] = [];
  for (const suggestion of parsed.suggestions) {
    if (suggestions.length === maxAiSuggestions) break;
    const patch = patchOf(sample, subject, suggestion);
    if (!patch) {
      log.debug('language-model keyword suggestion dropped', { keywordId: sample.rules.keywordId, type: suggestion.type, values: suggestion.values });
      continue;
    }
    suggestions.push(measuredSuggestion(sample, { type: suggestion.type, values: valuesOf(sample, suggestion, patch), patch, reason: suggestion.why }, 'ai'));
  }
  return suggestions;
}
