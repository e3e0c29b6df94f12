/**
 * Imported first by the entry points that serve requests (main.ts, the
 * benchmarks), before any GraphQL library loads. graphql-js decides when it
 * is first imported whether to check every `instanceOf` against a second
 * copy of itself, unless NODE_ENV is `production`: about 7 % of a mentions
 * page's CPU time. No other library Earshot runs on changes what it does
 * between an unset NODE_ENV and `production` (GraphQL Yoga and Hive Gateway
 * ask only for `development`; Apollo Server's introspection default is set
 * explicitly). Tests keep vitest's `test`.
 */
process.env.NODE_ENV ??= 'production';
