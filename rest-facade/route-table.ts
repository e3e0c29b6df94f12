import type { Route } from './route.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { keywordRoutes } from './routes/keywords.ts';
import { serviceRoutes } from './routes/service.ts';

/** Every `/v1` route; the OpenAPI document is generated from this list and nothing else. */
export const routeTable: Route[] = [...serviceRoutes, ...credentialRoutes, ...keywordRoutes];
