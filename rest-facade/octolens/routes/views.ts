import { z } from 'zod';
import type { GraphQLRoute } from '../../route.ts';
import { viewFields } from '../../routes/views.ts';
import { octolensFiltersOf } from '../mention-filters.ts';
import { octolensBase, octolensTag, octolensUnauthorized } from '../octolens-routes.ts';

const octolensViewSchema = z
  .object({
    id: z.number().int().meta({ description: 'Integer id, given when first shown and stable: the `view` of the mention list and export' }),
    sourceId: z.string().meta({ description: 'Our view id (`view_…`), as `GET /v1/views` shows it', example: 'view_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    name: z.string(),
    icon: z.null().meta({ description: 'Always null: views have no icon here' }),
    filters: z.record(z.string(), z.unknown()).meta({ description: 'Filters as the mention list takes them (`OctolensMentionFilters`)' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'OctolensView' });

/** Saved views (our `/v1/views`) in Octolens's shape: listed here, applied by `view` on the mention list and export. */
export const octolensViewRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: `${octolensBase}/views`,
    operationId: 'octolensListViews',
    summary:
      'The saved views (made with `POST /v1/views`), oldest first; pass one’s `id` as `view` to the mention list or export. `filters` shows what Octolens’s ' +
      'filters can say of a view; the rest of it (a search text, link hosts, a status other than done, …) applies through `view` all the same',
    tag: octolensTag,
    responses: {
      200: { description: 'The views', schema: z.object({ data: z.array(octolensViewSchema) }).meta({ id: 'OctolensViewList' }) },
      401: octolensUnauthorized,
    },
    operation: `query OctolensViews { mentionViews { ${viewFields} compatId compatKeywordIds compatNotKeywordIds } }`,
    variables: () => ({}),
    result: (data) => ({
      status: 200,
      body: {
        data: data.mentionViews.map((view: Record<string, any>) => ({
          id: view.compatId,
          sourceId: view.id,
          name: view.name,
          icon: null,
          filters: octolensFiltersOf(view as never),
          createdAt: view.createdAt,
          updatedAt: view.updatedAt,
        })),
      },
    }),
  },
];
