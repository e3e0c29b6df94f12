import { cursorTime, decodeCursor, pageOf, pageSize } from '../cursor-pages.ts';
import { notFound } from '../domain-error.ts';
import type { PothosBuilder, PothosObjectRef } from '../pothos-builder.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import type { MentionRow } from './mention-store.ts';
import { listPersonActivitiesPage, type PersonActivityRow } from './person-activity-store.ts';
import { type PeopleFilter, parsePeopleFilter } from './person-filter.ts';
import { mergePersonInto, splitPersonAccount } from './person-linking.ts';
import { personLoaders } from './person-loaders.ts';
import { logPersonActivity, patchPerson, personMergeInput, personSplitInput, removePersonActivity } from './person-outreach.ts';
import { findPerson, listPeoplePage, type ListedPerson, type PersonAccountRow, type PersonRow } from './person-store.ts';
import { getSegment } from './segment.ts';
import { parseInput, withoutNullKeys } from '../validate-input.ts';

/**
 * People page newest first: the cursor holds the last one's first-seen time
 * to the microsecond, as PostgreSQL keeps it (people seen in one statement
 * share it; cut to the millisecond, the next page skipped them all) and id.
 */
const personCursorKey = (person: ListedPerson) => [person.sortAt, person.id];
const parsePersonCursor = ([time, id, ...rest]: string[]) => {
  const createdAt = cursorTime(time, 6);
  return createdAt !== undefined && id?.startsWith('per_') && rest.length === 0 ? { createdAt, id } : undefined;
};

/** Activities page latest contact first (a time Node wrote, to the millisecond). */
const activityCursorKey = (activity: PersonActivityRow) => [activity.occurredAt.toISOString(), activity.id];
const parseActivityCursor = ([time, id, ...rest]: string[]) => {
  const occurredAt = cursorTime(time, 3);
  return occurredAt !== undefined && id?.startsWith('act_') && rest.length === 0 ? { occurredAt: new Date(occurredAt), id } : undefined;
};

async function findOwnPerson(ctx: SubgraphContext, id: string): Promise<PersonRow> {
  return (await findPerson(ctx.sql, requireAuth(ctx).workspaceId, id)) ?? Promise.reject(notFound('Person'));
}

/** The account a person is shown by: its most followed. */
const primaryAccount = async (person: PersonRow, ctx: SubgraphContext): Promise<PersonAccountRow | undefined> =>
  (await personLoaders(ctx).accounts.load(person.id))[0];

export function addPersonType(builder: PothosBuilder, Mention: PothosObjectRef<MentionRow>) {
  const PersonAccount = builder.objectRef<PersonAccountRow>('PersonAccount').implement({
    description: 'A platform account of a person: an author, shared by every workspace that saw it',
    fields: (t) => ({
      id: t.exposeID('id', { description: 'The author id (`aut_…`)' }),
      platform: t.exposeString('platform'),
      name: t.exposeString('name'),
      handle: t.exposeString('handle'),
      url: t.exposeString('url'),
      avatarUrl: t.exposeString('avatarUrl', { nullable: true }),
      followers: t.int({ resolve: (account) => account.followers ?? 0 }),
      tags: t.exposeStringList('tags'),
      links: t.stringList({ description: 'What the profile links to, as the platform gave it', resolve: (account) => account.profileLinks ?? [] }),
      mentions: t.exposeInt('mentions', { description: "This account's mentions in the workspace" }),
      splitByHand: t.exposeBoolean('held', { description: 'Split out by hand: automatic merging leaves it where it is' }),
    }),
  });

  const PersonMentionCounts = builder.objectRef<{ total: number; relevant: number }>('PersonMentionCounts').implement({
    fields: (t) => ({
      total: t.exposeInt('total', { description: "The person's mentions in this workspace, every account" }),
      relevant: t.exposeInt('relevant', { description: 'Of those, the relevant ones (verdicts written through)' }),
    }),
  });

  const Outreach = builder.objectRef<PersonRow>('Outreach').implement({
    description: "The workspace's outreach to the person (spec 2.11.3, 3.5)",
    fields: (t) => ({
      owner: t.id({ nullable: true, description: 'The member (user id) who owns the person; null: nobody', resolve: (person) => person.ownerId }),
      stage: t.exposeString('stage', { description: '`not_contacted`, `contacted`, `replied`, `in_talks`, `customer` or `not_a_fit`' }),
      lastContactAt: t.field({
        type: 'DateTime',
        nullable: true,
        description: 'When the latest activity happened; null before any',
        resolve: (person, _args, ctx) => personLoaders(ctx).lastContactAt.load(person.id),
      }),
    }),
  });

  const ApiKeyRef = builder
    .externalRef('ApiKey', builder.keyDirective(builder.selection<{ id: string }>('id'), false))
    .implement({ fields: (t) => ({ id: t.exposeID('id') }) });

  const ActivityMaker = builder.objectRef<PersonActivityRow>('ActivityMaker').implement({
    description: 'Who logged an activity: a signed-in user, or an API key (which stands for no one)',
    fields: (t) => ({
      userId: t.exposeID('userId', { nullable: true }),
      apiKeyId: t.exposeID('apiKeyId', { nullable: true }),
      apiKey: t.field({
        type: ApiKeyRef,
        nullable: true,
        description: 'The API key it was logged with, named as the team lists it (revoked keys too); null for a signed-in user',
        resolve: (activity) => (activity.apiKeyId ? { id: activity.apiKeyId } : null),
      }),
    }),
  });

  const PersonActivity = builder.objectRef<PersonActivityRow>('PersonActivity').implement({
    description: 'A contact logged against a person (spec 2.11.4)',
    fields: (t) => ({
      id: t.exposeID('id'),
      personId: t.exposeID('personId'),
      authorId: t.exposeID('authorId', { nullable: true, description: 'The account contacted, when one was named' }),
      channel: t.exposeString('channel'),
      note: t.exposeString('note'),
      madeBy: t.field({ type: ActivityMaker, resolve: (activity) => activity }),
      occurredAt: t.expose('occurredAt', { type: 'DateTime' }),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
    }),
  });

  const PersonActivityPage = builder.objectRef<{ nodes: PersonActivityRow[]; nextCursor: string | null }>('PersonActivityPage').implement({
    fields: (t) => ({
      nodes: t.field({ type: [PersonActivity], resolve: (page) => page.nodes }),
      nextCursor: t.exposeString('nextCursor', { nullable: true }),
    }),
  });

  const Person = builder.objectRef<PersonRow>('Person').implement({
    description: "One or more platform accounts this workspace knows as one person (spec 2.11.3), with the workspace's outreach",
    fields: (t) => ({
      id: t.exposeID('id'),
      name: t.string({ description: 'Of its most followed account', resolve: async (person, _args, ctx) => (await primaryAccount(person, ctx))?.name ?? '' }),
      handle: t.string({ resolve: async (person, _args, ctx) => (await primaryAccount(person, ctx))?.handle ?? '' }),
      avatarUrl: t.string({ nullable: true, resolve: async (person, _args, ctx) => (await primaryAccount(person, ctx))?.avatarUrl ?? null }),
      accounts: t.field({
        type: [PersonAccount],
        description: 'Most followed first',
        resolve: (person, _args, ctx) => personLoaders(ctx).accounts.load(person.id),
      }),
      links: t.stringList({
        description: "What the accounts' profiles link to",
        resolve: async (person, _args, ctx) => [...new Set((await personLoaders(ctx).accounts.load(person.id)).flatMap((account) => account.profileLinks ?? []))],
      }),
      tags: t.stringList({
        description: "Its accounts' tags together",
        resolve: async (person, _args, ctx) => [...new Set((await personLoaders(ctx).accounts.load(person.id)).flatMap((account) => account.tags))],
      }),
      automated: t.boolean({
        description: 'Most of their classified posts in this workspace are machine-made',
        resolve: async (person, _args, ctx) => (await personLoaders(ctx).stats.load(person.id)).automated,
      }),
      muted: t.exposeBoolean('muted', { description: 'Their mentions are never delivered and stay out of lists unless asked for' }),
      mentions: t.field({
        type: PersonMentionCounts,
        resolve: async (person, _args, ctx) => {
          const stats = await personLoaders(ctx).stats.load(person.id);
          return { total: stats.mentions, relevant: stats.relevant };
        },
      }),
      lastMention: t.field({
        type: Mention,
        nullable: true,
        description: 'Their newest mention here, by publication',
        resolve: (person, _args, ctx) => personLoaders(ctx).lastMention.load(person.id),
      }),
      outreach: t.field({ type: Outreach, resolve: (person) => person }),
      activities: t.field({
        type: PersonActivityPage,
        description: 'Contacts logged with the person across all their accounts, latest first',
        args: { first: t.arg.int({ description: '1 to 100, default 50' }), after: t.arg.string() },
        resolve: async (person, args, ctx) => {
          const limit = pageSize(args.first);
          const rows = await listPersonActivitiesPage(ctx.sql, person.workspaceId, person.id, {
            after: args.after ? decodeCursor(args.after, parseActivityCursor) : null,
            limit: limit + 1,
          });
          return pageOf(rows, limit, activityCursorKey);
        },
      }),
      createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the workspace first saw one of its accounts' }),
    }),
  });

  builder.objectField(Mention, 'person', (t) =>
    t.field({
      type: Person,
      description: "The person of the mention's author in this workspace",
      resolve: async (mention, _args, ctx) => (await personLoaders(ctx).ofAuthor.load(mention.authorId)) ?? Promise.reject(notFound('Person')),
    }),
  );

  const PersonPage = builder.objectRef<{ nodes: PersonRow[]; nextCursor: string | null }>('PersonPage').implement({
    description: 'A page of people, newest first; pass `nextCursor` as `after` for the next page',
    fields: (t) => ({
      nodes: t.field({ type: [Person], resolve: (page) => page.nodes }),
      nextCursor: t.exposeString('nextCursor', { nullable: true }),
    }),
  });

  const PeopleFilterType = builder.objectRef<PeopleFilter>('PeopleFilter').implement({
    description: 'Which people pass; a null key does not filter',
    fields: (t) => ({
      linkHosts: t.stringList({ nullable: true, resolve: (f) => f.linkHosts ?? null }),
      stages: t.stringList({ nullable: true, resolve: (f) => f.stages ?? null }),
      ownerIds: t.stringList({ nullable: true, resolve: (f) => f.ownerIds ?? null }),
      automated: t.boolean({ nullable: true, resolve: (f) => f.automated ?? null }),
      q: t.string({ nullable: true, resolve: (f) => f.q ?? null }),
    }),
  });

  const PeopleFilterInput = builder.inputType('PeopleFilterInput', {
    fields: (t) => ({
      linkHosts: t.stringList({ description: 'Profiles linking to one of these hosts or their subdomains' }),
      stages: t.stringList(),
      ownerIds: t.stringList({ description: 'Member user ids; `none` for unowned people' }),
      automated: t.boolean(),
      q: t.string({ description: 'A piece of a name or handle' }),
    }),
  });

  builder.queryField('people', (t) =>
    t.field({
      type: PersonPage,
      description: "The workspace's people passing the filter (and the segment's, when one is named), newest first",
      args: {
        first: t.arg.int({ description: '1 to 100, default 50' }),
        after: t.arg.string(),
        filter: t.arg({ type: PeopleFilterInput }),
        segmentId: t.arg.id({ description: "A segment's saved filter, applied beside `filter`" }),
      },
      resolve: async (_root, args, ctx) => {
        const workspaceId = requireAuth(ctx).workspaceId;
        const limit = pageSize(args.first);
        const filters = [parsePeopleFilter(withoutNullKeys(args.filter))];
        if (args.segmentId) filters.push((await getSegment(ctx.sql, workspaceId, String(args.segmentId))).filter);
        const rows = await listPeoplePage(ctx.sql, workspaceId, {
          filters,
          after: args.after ? decodeCursor(args.after, parsePersonCursor) : null,
          limit: limit + 1,
        });
        return pageOf(rows, limit, personCursorKey);
      },
    }),
  );

  builder.queryField('person', (t) =>
    t.field({ type: Person, args: { id: t.arg.id({ required: true }) }, resolve: (_root, args, ctx) => findOwnPerson(ctx, String(args.id)) }),
  );

  const PersonPatchInput = builder.inputType('PersonPatchInput', {
    description: 'Omitted fields stay; `ownerId` null leaves the person unowned',
    fields: (t) => ({ ownerId: t.id(), stage: t.string(), muted: t.boolean() }),
  });

  builder.mutationField('updatePerson', (t) =>
    t.field({
      type: Person,
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: PersonPatchInput, required: true }) },
      resolve: (_root, args, ctx) => patchPerson(ctx.sql, requireAuth(ctx).workspaceId, String(args.id), args.input),
    }),
  );

  builder.mutationField('mergePeople', (t) =>
    t.field({
      type: Person,
      description: 'Merges `personId` into `id` by hand: its accounts and activities move to `id`, which keeps its owner and stage where it has them',
      args: { id: t.arg.id({ required: true }), personId: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        const { personId } = parseInput(personMergeInput, { personId: args.personId });
        return findOwnPerson(ctx, await mergePersonInto(ctx.sql, requireAuth(ctx).workspaceId, String(args.id), personId));
      },
    }),
  );

  builder.mutationField('splitPerson', (t) =>
    t.field({
      type: Person,
      description: 'Takes one account out of a person into a new person of its own, which automatic merging then leaves alone; answers the new person',
      args: { id: t.arg.id({ required: true }), authorId: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        const { authorId } = parseInput(personSplitInput, { authorId: args.authorId });
        return findOwnPerson(ctx, await splitPersonAccount(ctx.sql, requireAuth(ctx).workspaceId, String(args.id), authorId));
      },
    }),
  );

  const PersonActivityInput = builder.inputType('PersonActivityInput', {
    fields: (t) => ({
      channel: t.string({ description: '`email`, `x`, `linkedin`, `reddit`, `bluesky`, `github`, `slack`, `discord`, `call`, `meeting` or `other`' }),
      note: t.string(),
      occurredAt: t.string({ description: 'ISO 8601; default now' }),
      authorId: t.id({ description: "The account contacted, one of the person's" }),
    }),
  });

  builder.mutationField('logPersonActivity', (t) =>
    t.field({
      type: PersonActivity,
      description: 'Logs a contact; an unowned person becomes the signed-in user’s and a person not yet contacted moves to `contacted` (spec 3.5.2)',
      args: { personId: t.arg.id({ required: true }), input: t.arg({ type: PersonActivityInput, required: true }) },
      resolve: (_root, args, ctx) => logPersonActivity(ctx.sql, requireAuth(ctx), String(args.personId), withoutNullKeys(args.input), ctx.clock.now()),
    }),
  );

  builder.mutationField('deletePersonActivity', (t) =>
    t.field({
      type: 'Boolean',
      args: { personId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        await removePersonActivity(ctx.sql, requireAuth(ctx).workspaceId, String(args.personId), String(args.id));
        return true;
      },
    }),
  );

  return { PeopleFilterType, PeopleFilterInput };
}
