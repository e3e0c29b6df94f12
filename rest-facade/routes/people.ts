import { z } from 'zod';
import {
  activityChannels,
  linkHost,
  maxFilterValues,
  ownerId,
  personActivityInput,
  personMergeInput,
  personPatchInput,
  personSearch,
  personSplitInput,
  personStages,
} from '../../subgraphs/mentions/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { invalidBodyResponse, notFoundResponse, readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';
import { queryList } from '../../subgraphs/query-list.ts';
import { booleanText, pageQuery } from '../query-parameters.ts';

const timestamp = z.iso.datetime();

/** Every field of a person (spec 2.11.3) as the routes ask for it. */
const personFields = `id name handle avatarUrl links tags automated muted createdAt
  accounts { id platform name handle url avatarUrl followers tags links mentions splitByHand }
  mentions { total relevant }
  lastMention { id post { platform url publishedAt } keyword { id term } }
  outreach { owner stage lastContactAt }`;

const personSchema = z
  .object({
    id: z.string().meta({ example: 'per_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    name: z.string().meta({ description: 'Of its most followed account' }),
    handle: z.string(),
    avatarUrl: z.string().nullable(),
    links: z.array(z.string()).meta({ description: "What the accounts' profiles link to" }),
    tags: z.array(z.string()),
    automated: z.boolean().meta({ description: 'Most of their classified posts in this workspace are machine-made' }),
    muted: z.boolean().meta({ description: 'Their mentions are never delivered and stay out of lists unless asked for' }),
    createdAt: timestamp.meta({ description: 'When the workspace first saw one of the accounts' }),
    accounts: z.array(
      z.object({
        id: z.string().meta({ description: 'The author id (`aut_…`), the same in every workspace' }),
        platform: z.string(),
        name: z.string(),
        handle: z.string(),
        url: z.string(),
        avatarUrl: z.string().nullable(),
        followers: z.number().int(),
        tags: z.array(z.string()),
        links: z.array(z.string()).meta({ description: 'What the profile links to, as the platform gave it' }),
        mentions: z.number().int().meta({ description: "This account's mentions in the workspace" }),
        splitByHand: z.boolean().meta({ description: 'Split out by hand: automatic merging leaves it where it is' }),
      }),
    ).meta({ description: 'Most followed first' }),
    mentions: z.object({ total: z.number().int(), relevant: z.number().int() }),
    lastMention: z
      .object({
        id: z.string(),
        post: z.object({ platform: z.string(), url: z.string(), publishedAt: timestamp }),
        keyword: z.object({ id: z.string(), term: z.string() }),
      })
      .nullable()
      .meta({ description: 'Their newest mention here, by publication' }),
    outreach: z.object({
      owner: z.string().nullable().meta({ description: 'The owning member (user id); null: nobody' }),
      stage: z.enum(personStages),
      lastContactAt: timestamp.nullable(),
    }),
  })
  .meta({ id: 'Person' });

const activityFields = 'id personId authorId channel note madeBy { userId apiKeyId apiKey { id name } } occurredAt createdAt';

const activitySchema = z
  .object({
    id: z.string().meta({ example: 'act_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    personId: z.string(),
    authorId: z.string().nullable().meta({ description: 'The account contacted, when one was named' }),
    channel: z.enum(activityChannels),
    note: z.string(),
    madeBy: z
      .object({
        userId: z.string().nullable(),
        apiKeyId: z.string().nullable(),
        apiKey: z
          .object({ id: z.string(), name: z.string() })
          .nullable()
          .meta({ description: 'The API key it was logged with, by its id and name (a revoked key still named); null when a signed-in user logged it' }),
      })
      .meta({ description: 'The signed-in user who logged it, or the API key (which stands for no one: `userId` null)' }),
    occurredAt: timestamp,
    createdAt: timestamp,
  })
  .meta({ id: 'PersonActivity' });

const personNotFound = notFoundResponse('person');
const writeResponses = { 401: unauthorizedResponse, 403: readOnlyKeyResponse, 404: personNotFound };

/** The people list's filter parameters (spec 4.7), read from the query string. */
const peopleFilterQuery = {
  linkHosts: queryList(linkHost).optional().meta({ description: "Hosts, repeated or comma-separated: people whose profiles link to one of them or a subdomain (`www.` ignored)" }),
  stages: queryList(z.enum(personStages)).optional().meta({ description: 'Outreach stages, repeated or comma-separated' }),
  ownerIds: queryList(ownerId).optional().meta({ description: 'Member user ids, repeated or comma-separated; `none` for unowned people' }),
  automated: booleanText.optional().meta({ description: 'true: people most of whose classified posts here are machine-made; false: the rest' }),
  q: personSearch.optional().meta({ description: 'A piece of a name or handle of one of their accounts, any case' }),
};

/** The filter keys of a parsed query, as the GraphQL `PeopleFilterInput` takes them. */
const peopleFilterVariables = (query: Record<string, any>) =>
  Object.fromEntries(Object.keys(peopleFilterQuery).filter((name) => query[name] !== undefined).map((name) => [name, query[name]]));

export const peopleRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/people',
    operationId: 'listPeople',
    summary:
      "The workspace's people (accounts merged across platforms), newest first; filters combine, a segment's with the rest. " +
      'Pass `nextCursor` back as `cursor`',
    tag: 'People',
    query: z.object({
      ...pageQuery,
      ...peopleFilterQuery,
      segmentId: z.string().min(1).max(100).optional().meta({ description: "A segment whose saved filter applies beside the others" }),
    }),
    responses: {
      200: { description: 'A page of people', schema: z.object({ data: z.array(personSchema), nextCursor: z.string().nullable() }).meta({ id: 'PersonPage' }) },
      400: {
        description:
          'An unknown query parameter or a bad value of one (`validation_error`, with `field`), a bad cursor (`invalid_cursor`), ' +
          `or more than ${maxFilterValues} values in the filter's lists (\`filter_too_complex\`)`,
      },
      401: unauthorizedResponse,
      404: { description: 'A `segmentId` that is no segment of this workspace (`not_found`)' },
    },
    operation: `query ListPeople($first: Int, $after: String, $filter: PeopleFilterInput, $segmentId: ID) {
      people(first: $first, after: $after, filter: $filter, segmentId: $segmentId) { nodes { ${personFields} } nextCursor }
    }`,
    variables: ({ query }) => ({
      first: query.limit ?? null,
      after: query.cursor ?? null,
      filter: peopleFilterVariables(query),
      segmentId: query.segmentId ?? null,
    }),
    result: (data) => ({ status: 200, body: { data: data.people.nodes, nextCursor: data.people.nextCursor } }),
  },
  {
    method: 'GET',
    path: '/v1/people/{id}',
    operationId: 'getPerson',
    summary: 'One person: accounts, mention counts, last mention, outreach, muting and tags',
    tag: 'People',
    responses: { 200: { description: 'The person', schema: personSchema }, 401: unauthorizedResponse, 404: personNotFound },
    operation: `query GetPerson($id: ID!) { person(id: $id) { ${personFields} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: data.person }),
  },
  {
    method: 'PATCH',
    path: '/v1/people/{id}',
    operationId: 'updatePerson',
    summary: 'Sets the owner (a member, or null), the outreach stage, or mutes the person; omitted fields stay',
    tag: 'People',
    body: personPatchInput,
    responses: {
      200: { description: 'The person after the change', schema: personSchema },
      400: { description: `${invalidBodyResponse.description}, or an owner who is no member of this workspace (\`invalid_member\`)` },
      ...writeResponses,
    },
    operation: `mutation UpdatePerson($id: ID!, $input: PersonPatchInput!) { updatePerson(id: $id, input: $input) { ${personFields} } }`,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => ({ status: 200, body: data.updatePerson }),
  },
  {
    method: 'POST',
    path: '/v1/people/{id}/merge',
    operationId: 'mergePeople',
    summary:
      'Merges another person into this one by hand: its accounts and activities move here, this person keeps its owner and stage ' +
      '(taking the other’s where it has none) and the other id answers 404 from then on',
    tag: 'People',
    body: personMergeInput,
    responses: {
      200: { description: 'The merged person', schema: personSchema },
      400: { description: `${invalidBodyResponse.description}, such as a person merged into itself` },
      ...writeResponses,
      404: { description: 'Either person is not one of this workspace (`not_found`)' },
    },
    operation: `mutation MergePeople($id: ID!, $personId: ID!) { mergePeople(id: $id, personId: $personId) { ${personFields} } }`,
    variables: ({ params, body }) => ({ id: params.id, personId: (body as { personId: string }).personId }),
    result: (data) => ({ status: 200, body: data.mergePeople }),
  },
  {
    method: 'POST',
    path: '/v1/people/{id}/split',
    operationId: 'splitPerson',
    summary:
      'Takes one account out of this person into a new person of its own (with the activities naming that account); ' +
      'automatic merging leaves it there from then on',
    tag: 'People',
    body: personSplitInput,
    responses: {
      201: { description: 'The new person', schema: personSchema },
      400: { description: `${invalidBodyResponse.description}, such as an account that is not this person's or its only one` },
      ...writeResponses,
    },
    operation: `mutation SplitPerson($id: ID!, $authorId: ID!) { splitPerson(id: $id, authorId: $authorId) { ${personFields} } }`,
    variables: ({ params, body }) => ({ id: params.id, authorId: (body as { authorId: string }).authorId }),
    result: (data) => ({ status: 201, body: data.splitPerson }),
  },
  {
    method: 'GET',
    path: '/v1/people/{id}/activities',
    operationId: 'listPersonActivities',
    summary: 'Contacts logged with the person across all their accounts, latest first',
    tag: 'People',
    query: z.object(pageQuery),
    responses: {
      200: { description: 'A page of activities', schema: z.object({ data: z.array(activitySchema), nextCursor: z.string().nullable() }).meta({ id: 'PersonActivityPage' }) },
      400: { description: 'A bad `limit` (`validation_error`) or `cursor` (`invalid_cursor`)' },
      401: unauthorizedResponse,
      404: personNotFound,
    },
    operation: `query PersonActivities($id: ID!, $first: Int, $after: String) {
      person(id: $id) { activities(first: $first, after: $after) { nodes { ${activityFields} } nextCursor } }
    }`,
    variables: ({ params, query }) => ({ id: params.id, first: query.limit ?? null, after: query.cursor ?? null }),
    result: (data) => ({ status: 200, body: { data: data.person.activities.nodes, nextCursor: data.person.activities.nextCursor } }),
  },
  {
    method: 'POST',
    path: '/v1/people/{id}/activities',
    operationId: 'logPersonActivity',
    summary:
      'Logs a contact (spec 3.5.2): an unowned person becomes the signed-in user’s (an API key claims nobody) and a person ' +
      'not yet contacted moves to `contacted`; an owner is never taken away',
    tag: 'People',
    body: personActivityInput,
    responses: {
      201: { description: 'The activity', schema: activitySchema },
      400: { description: `${invalidBodyResponse.description}, such as an \`authorId\` that is not one of the person's accounts` },
      ...writeResponses,
    },
    operation: `mutation LogPersonActivity($personId: ID!, $input: PersonActivityInput!) { logPersonActivity(personId: $personId, input: $input) { ${activityFields} } }`,
    variables: ({ params, body }) => ({ personId: params.id, input: body }),
    result: (data) => ({ status: 201, body: data.logPersonActivity }),
  },
  {
    method: 'DELETE',
    path: '/v1/people/{id}/activities/{activityId}',
    operationId: 'deletePersonActivity',
    summary: 'Removes an activity; the owner and stage stay as they are',
    tag: 'People',
    responses: { 204: { description: 'Removed' }, ...writeResponses, 404: { description: 'No such person, or no such activity of it (`not_found`)' } },
    operation: `mutation DeletePersonActivity($personId: ID!, $id: ID!) { deletePersonActivity(personId: $personId, id: $id) }`,
    variables: ({ params }) => ({ personId: params.id, id: params.activityId }),
    result: () => ({ status: 204 }),
  },
];
