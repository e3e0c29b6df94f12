/**
 * The import rules of Earshot's layout, checked by `npm test`
 * (test/layout.test.ts) and by `npx depcruise --config .dependency-cruiser.cjs .`.
 * Imports flow one way (README "Architecture"):
 *   main.ts, cli/, server/, bench/ → mcp/ → rest-facade/ → gateway/ → subgraphs/ → runtime/ → vocabulary/
 *   jobs/ → classifier/ and subgraphs/
 *   oauth/ → subgraphs/team/index.ts and runtime/
 * and each subgraph is used through its own index.ts.
 */
const subgraph = '(keywords|mentions|billing|team)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules must not import each other in a circle, directly or through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'vocabulary-imports-nothing',
      comment: 'vocabulary/ is the bottom layer: shared words every part may import; it imports nothing of the project.',
      severity: 'error',
      from: { path: '^vocabulary/' },
      to: { path: '^(runtime|subgraphs|classifier|jobs|gateway|rest-facade|oauth|mcp|server|cli|bench)/' },
    },
    {
      name: 'dashboard-is-a-browser-app',
      comment: 'dashboard/src runs in the browser and reaches Earshot only over /graphql (and /v1/auth); of the server it imports only the shared vocabulary.',
      severity: 'error',
      from: { path: '^dashboard/src/' },
      to: { path: '^(runtime|subgraphs|classifier|jobs|gateway|rest-facade|server|cli|bench|test)/' },
    },
    {
      name: 'runtime-imports-only-vocabulary',
      comment: 'runtime/ is process plumbing below every other part; it imports nothing above it.',
      severity: 'error',
      from: { path: '^runtime/' },
      to: { path: '^(subgraphs|classifier|jobs|gateway|rest-facade|oauth|mcp|server|cli|bench)/' },
    },
    {
      name: 'classifier-is-a-library',
      comment: 'classifier/ reads the shared vocabulary and runtime only; the scoring job calls it.',
      severity: 'error',
      from: { path: '^classifier/' },
      to: { path: '^(subgraphs|jobs|gateway|rest-facade|oauth|mcp|server|cli|bench)/' },
    },
    {
      name: 'subgraphs-import-downward',
      comment: 'Subgraphs sit below the gateway, the facade and the jobs and never import them.',
      severity: 'error',
      from: { path: '^subgraphs/' },
      to: { path: '^(classifier|jobs|gateway|rest-facade|oauth|mcp|server|cli|bench)/' },
    },
    {
      name: 'subgraph-through-its-index',
      comment: "A subgraph uses another subgraph only through that subgraph's index.ts, never its stores or other files.",
      severity: 'error',
      from: { path: `^subgraphs/${subgraph}/` },
      to: { path: `^subgraphs/${subgraph}/`, pathNot: [`^subgraphs/$1/`, `^subgraphs/${subgraph}/index\\.ts$`] },
    },
    {
      name: 'outside-through-subgraph-index',
      comment: "Code outside subgraphs/ reaches a subgraph only through its index.ts.",
      severity: 'error',
      from: { path: '^(jobs|gateway|rest-facade|oauth|mcp|server|cli|bench|main\\.ts)' },
      to: { path: `^subgraphs/${subgraph}/`, pathNot: `^subgraphs/${subgraph}/index\\.ts$` },
    },
    {
      name: 'gateway-below-facade',
      comment: 'The gateway does not know the REST facade, the jobs or the start-up above it.',
      severity: 'error',
      from: { path: '^gateway/' },
      to: { path: '^(rest-facade|oauth|mcp|jobs|classifier|server|cli|bench)/' },
    },
    {
      name: 'facade-and-jobs-apart',
      comment: 'The REST facade and the jobs are separate tops: neither imports the other.',
      severity: 'error',
      from: { path: '^(rest-facade|jobs)/' },
      to: { path: '^(server|cli|bench)/' },
    },
    {
      name: 'facade-not-jobs',
      comment: 'The REST facade reaches the domain through the gateway and the subgraphs, never through jobs, and knows nothing of the MCP server or the OAuth pages.',
      severity: 'error',
      from: { path: '^rest-facade/' },
      to: { path: '^(jobs|classifier|mcp|oauth)/' },
    },
    {
      name: 'oauth-through-team',
      comment: "oauth/ (the authorization server's HTTP layer) keeps its state through the team subgraph's index.ts and runtime/, nothing else of Earshot.",
      severity: 'error',
      from: { path: '^oauth/' },
      to: { path: '^(subgraphs|gateway|rest-facade|mcp|jobs|classifier|server|cli|bench)/', pathNot: '^subgraphs/team/index\\.ts$' },
    },
    {
      name: 'mcp-through-rest-routes',
      comment: 'mcp/ runs REST routes in process, whose GraphQL operations run on the gateway; it never reaches jobs, the OAuth pages or the start-up.',
      severity: 'error',
      from: { path: '^mcp/' },
      to: { path: '^(jobs|classifier|oauth|server|cli|bench)/' },
    },
    {
      name: 'jobs-not-facade',
      comment: 'Jobs call domain functions of the subgraphs; they never go through the gateway or the facade.',
      severity: 'error',
      from: { path: '^jobs/' },
      to: { path: '^(rest-facade|gateway|oauth|mcp)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test|dashboard/dist|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
};
