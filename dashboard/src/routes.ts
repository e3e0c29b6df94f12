import type { AnyComponent } from 'preact';
import lazy from 'preact-iso/lazy';

/**
 * The signed-in pages: each is its own module, loaded when first opened.
 * Adding a page is one entry here and one folder in `pages/`.
 */
export interface PageRoute {
  path: string;
  /** Shown in the navigation when set. */
  label?: string;
  component: AnyComponent<any>;
}

export const pageRoutes: PageRoute[] = [
  { path: '/inbox', label: 'Inbox', component: lazy(() => import('./pages/inbox/inbox-page')) },
  { path: '/people', label: 'People', component: lazy(() => import('./pages/people/people-page')) },
  { path: '/keywords', label: 'Keywords', component: lazy(() => import('./pages/keywords/keywords-page')) },
  { path: '/keywords/:id', component: lazy(() => import('./pages/keywords/keyword-page')) },
  { path: '/analytics', label: 'Analytics', component: lazy(() => import('./pages/analytics/analytics-page')) },
  { path: '/wallet', label: 'Wallet & usage', component: lazy(() => import('./pages/wallet/wallet-page')) },
  { path: '/alerts', label: 'Alerts & channels', component: lazy(() => import('./pages/alerts/alerts-page')) },
  { path: '/alerts/channels/:id', component: lazy(() => import('./pages/alerts/channel-page')) },
  { path: '/team', label: 'Team', component: lazy(() => import('./pages/team/team-page')) },
];
