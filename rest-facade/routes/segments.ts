import { z } from 'zod';
import { maxFilterValues, peopleFilterInput, segmentCreateInput, segmentPatchInput } from '../../subgraphs/mentions/index.ts';
import type { GraphQLRoute } from '../route.ts';
import { invalidBodyResponse, notFoundResponse, readOnlyKeyResponse, unauthorizedResponse } from '../route-responses.ts';

const segmentFields = 'id name createdAt updatedAt filter { linkHosts stages ownerIds automated q }';

const segmentSchema = z
  .object({
    id: z.string().meta({ example: 'seg_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    name: z.string(),
    filter: peopleFilterInput.meta({ description: 'Only the keys that filter' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Segment' });

/** The segment as REST shows it: a filter key that does not filter is left out rather than null. */
const segmentBody = (segment: any) => ({ ...segment, filter: Object.fromEntries(Object.entries(segment.filter).filter(([, value]) => value !== null)) });

const segmentNotFound = notFoundResponse('segment');
const badFilter =
  `${invalidBodyResponse.description}, an owner in \`ownerIds\` who is no member of this workspace (\`invalid_member\`, with \`field\`), ` +
  `or a filter of more than ${maxFilterValues} values in its lists together (\`filter_too_complex\`)`;
const duplicateSegment = { description: 'Another segment of the workspace has this name, whatever its case (`duplicate_segment`)' };

export const segmentRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/segments',
    operationId: 'listSegments',
    summary: "The workspace's segments (named filters over people), oldest first",
    tag: 'Segments',
    responses: { 200: { description: 'The segments', schema: z.object({ data: z.array(segmentSchema) }).meta({ id: 'SegmentList' }) }, 401: unauthorizedResponse },
    operation: `query ListSegments { segments { ${segmentFields} } }`,
    variables: () => ({}),
    result: (data) => ({ status: 200, body: { data: data.segments.map(segmentBody) } }),
  },
  {
    method: 'POST',
    path: '/v1/segments',
    operationId: 'createSegment',
    summary: 'Saves a people filter under a name; list its people with `GET /v1/people?segmentId=`',
    tag: 'Segments',
    body: segmentCreateInput,
    responses: {
      201: { description: 'The segment', schema: segmentSchema },
      400: { description: badFilter },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      409: duplicateSegment,
    },
    operation: `mutation CreateSegment($input: CreateSegmentInput!) { createSegment(input: $input) { ${segmentFields} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ status: 201, body: segmentBody(data.createSegment) }),
  },
  {
    method: 'GET',
    path: '/v1/segments/{id}',
    operationId: 'getSegment',
    summary: 'One segment',
    tag: 'Segments',
    responses: { 200: { description: 'The segment', schema: segmentSchema }, 401: unauthorizedResponse, 404: segmentNotFound },
    operation: `query GetSegment($id: ID!) { segment(id: $id) { ${segmentFields} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: segmentBody(data.segment) }),
  },
  {
    method: 'PATCH',
    path: '/v1/segments/{id}',
    operationId: 'updateSegment',
    summary: 'Renames a segment or replaces its filter; omitted fields stay',
    tag: 'Segments',
    body: segmentPatchInput,
    responses: {
      200: { description: 'The segment after the change', schema: segmentSchema },
      400: { description: badFilter },
      401: unauthorizedResponse,
      403: readOnlyKeyResponse,
      404: segmentNotFound,
      409: duplicateSegment,
    },
    operation: `mutation UpdateSegment($id: ID!, $input: UpdateSegmentInput!) { updateSegment(id: $id, input: $input) { ${segmentFields} } }`,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
    result: (data) => ({ status: 200, body: segmentBody(data.updateSegment) }),
  },
  {
    method: 'DELETE',
    path: '/v1/segments/{id}',
    operationId: 'deleteSegment',
    summary: 'Deletes a segment; its people are untouched',
    tag: 'Segments',
    responses: { 204: { description: 'Deleted' }, 401: unauthorizedResponse, 403: readOnlyKeyResponse, 404: segmentNotFound },
    operation: `mutation DeleteSegment($id: ID!) { deleteSegment(id: $id) }`,
    variables: ({ params }) => ({ id: params.id }),
    result: () => ({ status: 204 }),
  },
];
