import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { reviewPlatforms, searchPlatforms } from '../vocabulary/normalized-post.ts';
import { intents, sentiments } from '../vocabulary/classification-values.ts';
import type { ClassificationInput } from './classifier-types.ts';
import { keywordKinds } from '../vocabulary/keyword-kinds.ts';

/** The labelled posts of `npm run eval` and the benchmark. */
export const evalSetPath = new URL('../test/fixtures/classifier-eval.jsonl', import.meta.url);
/**
 * The fresh holdouts, rounds 3, 6, 9 and 10: keywords of categories no
 * vocabulary, training post or test was written for, each by an annotator who
 * saw neither the classifier nor the other sets (eval/README.md). Only ever
 * measured: never tuned on, never listed. Rounds 6, 9 and 10 were each written
 * once the rounds before had been read at the end of several passes, so that
 * one holdout stays barely looked at.
 */
export const freshHoldoutPaths = {
  3: new URL('../eval/round3-holdout.jsonl', import.meta.url),
  6: new URL('../eval/round6-holdout.jsonl', import.meta.url),
  9: new URL('../eval/round9-holdout.jsonl', import.meta.url),
  10: new URL('../eval/round10-holdout.jsonl', import.meta.url),
} as const;
export type FreshHoldoutRound = keyof typeof freshHoldoutPaths;
export const freshHoldoutRounds = [3, 6, 9, 10] as const satisfies readonly FreshHoldoutRound[];
/**
 * The development set of unseen categories: keywords of categories no
 * vocabulary, training post, test or round 3 names (eval/README.md). Unlike
 * round 3 it IS tuned on: its errors are listed and changes are chosen by its
 * figures, so it measures progress, never the classifier's honest quality.
 */
export const developmentSetPath = new URL('../eval/development-unseen.jsonl', import.meta.url);
/**
 * The development set of technical categories (round 5): software whose name
 * is an everyday word, as round 3's keywords are, in categories no other set
 * names; tuned on like the development set of round 4.
 */
export const developmentTechSetPath = new URL('../eval/development-tech.jsonl', import.meta.url);
/**
 * The development set of everyday categories (round 7): brands and products
 * named by everyday words (a guitar maker, backpacks, dog food, a typeface,
 * audiobooks…), in categories no other set names; tuned on like rounds 4
 * and 5.
 */
export const developmentEverydaySetPath = new URL('../eval/development-everyday.jsonl', import.meta.url);
/**
 * The development set of app categories (round 8): apps and services named
 * by everyday words (a calendar, travel search, a camera app, a dating app,
 * a VPN, an insurer…), written to exercise opinion reading (sarcasm, mixed
 * posts, plain-word complaints and praise); tuned on like rounds 4, 5 and 7.
 */
export const developmentAppsSetPath = new URL('../eval/development-apps.jsonl', import.meta.url);

const labelledPostSchema = z.object({
  id: z.string().min(1),
  /**
   * `holdout` posts are never looked at while tuning; their numbers are the
   * honest ones. `development` posts are looked at and tuned on, like `tune`
   * posts, but the opinion models never train on them.
   */
  split: z.enum(['tune', 'holdout', 'development']),
  /**
   * 1: the posts written before any tuning; 2: posts written later by
   * annotators who saw neither the classifier nor the holdout, to widen both
   * parts; 3: the round-3 holdout; 4: the development set of unseen
   * categories; 5: the development set of technical categories; 6: the
   * round-6 holdout; 7: the development set of everyday categories; 8: the
   * development set of app categories; 9 and 10: the round-9 and round-10 holdouts. `npm run
   * eval` reports each round apart.
   */
  round: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6), z.literal(7), z.literal(8), z.literal(9), z.literal(10)]).default(1),
  keyword: z.object({ term: z.string().min(2).max(80), kind: z.enum(keywordKinds), context: z.string().max(300).nullable() }),
  // Rounds 7, 8 and 9 write a company as its name and description alone: what they leave out, it has none of.
  company: z
    .object({
      name: z.string().nullable(),
      description: z.string().nullable(),
      website: z.string().nullable().default(null),
      competitors: z.array(z.string()).default([]),
      guidelines: z.string().nullable().default(null),
    })
    .optional(),
  text: z.string().min(1),
  platform: z.enum([...searchPlatforms, ...reviewPlatforms, 'rss']),
  author: z.object({ name: z.string(), handle: z.string(), followers: z.number().int().min(0) }),
  expected: z.object({
    relevant: z.boolean(),
    sentiment: z.enum(sentiments),
    intents: z.array(z.enum(intents)),
    automated: z.boolean(),
    language: z.string().regex(/^[a-z]{2}$/u),
  }),
});

export type LabelledPost = z.infer<typeof labelledPostSchema>;

async function readLabelledPosts(path: URL): Promise<LabelledPost[]> {
  const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  const file = path.pathname.split('/').at(-1);
  return lines.map((line, index) => {
    const parsed = labelledPostSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`${file} line ${index + 1}: ${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}`);
    return parsed.data;
  });
}

/** Rounds 1 and 2: the tune posts and their holdout. */
export function readEvalSet(): Promise<LabelledPost[]> {
  return readLabelledPosts(evalSetPath);
}

export async function readFreshHoldout(round: FreshHoldoutRound): Promise<LabelledPost[]> {
  const posts = await readLabelledPosts(freshHoldoutPaths[round]);
  const misplaced = posts.find((post) => post.split !== 'holdout' || post.round !== round);
  if (misplaced) throw new Error(`round${round}-holdout.jsonl: ${misplaced.id} is not a round-${round} holdout post`);
  return posts;
}

async function readDevelopmentRound(path: URL, round: 4 | 5 | 7 | 8): Promise<LabelledPost[]> {
  const posts = await readLabelledPosts(path);
  const misplaced = posts.find((post) => post.split !== 'development' || post.round !== round);
  if (misplaced) throw new Error(`${path.pathname.split('/').at(-1)}: ${misplaced.id} is not a round-${round} development-set post`);
  return posts;
}

/** Rounds 4, 5, 7 and 8: the development sets, tuned on, never trained on. */
export async function readDevelopmentSet(): Promise<LabelledPost[]> {
  const rounds = await Promise.all([
    readDevelopmentRound(developmentSetPath, 4),
    readDevelopmentRound(developmentTechSetPath, 5),
    readDevelopmentRound(developmentEverydaySetPath, 7),
    readDevelopmentRound(developmentAppsSetPath, 8),
  ]);
  return rounds.flat();
}

const fixedDate = new Date('2025-03-01T12:00:00Z');

/** The classifier's view of a labelled post, shaped as a connector would hand it over. */
export function inputOf(post: LabelledPost): ClassificationInput {
  const slug = post.keyword.term.toLowerCase().replace(/\W+/gu, '-');
  return {
    mentionId: post.id,
    post: {
      platform: post.platform,
      url: `https://${post.platform}.example/${post.id}`,
      text: post.text,
      publishedAt: fixedDate,
      links: post.text.match(/\bhttps?:\/\/\S+/gu) ?? [],
      author: {
        platformId: post.author.handle,
        name: post.author.name,
        handle: post.author.handle,
        url: `https://${post.platform}.example/@${post.author.handle}`,
        avatarUrl: null,
        followers: post.author.followers,
      },
    },
    keyword: { id: `kw_${slug}`, term: post.keyword.term, kind: post.keyword.kind, context: post.keyword.context, groupDescription: null },
    company: post.company ?? null,
  };
}
