/** Verdicts on a keyword "Apollo" tracking the GraphQL tools: the space programme rejected, Apollo Client and Server kept. */
export const apolloVerdicts = [
  { text: 'Apollo 11 moon landing footage restored for the NASA mission anniversary', relevant: false },
  { text: 'The Apollo astronauts trained for the moon mission in Arizona craters', relevant: false },
  { text: 'NASA archive: every Apollo mission patch, from 7 to the last moon landing', relevant: false },
  { text: 'Apollo Client cache policies finally make sense after the v3 docs rewrite', relevant: true },
  { text: 'We put Apollo Server behind our gateway and the cache hit rate doubled', relevant: true },
];
