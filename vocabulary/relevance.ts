// Shared vocabulary, importing nothing: the relevance line that the classifier, the mentions subgraph and the jobs judge scores by.

/** A mention counts as relevant at this score or above (spec 1.2, 8). */
export const relevanceLine = 40;
