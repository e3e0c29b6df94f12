/**
 * Where the opinion readers (sentiment, intents, moves between products)
 * cut a post into sentences: at full stops, question and exclamation marks,
 * Latin or CJK, and at line breaks; a clause also ends at a semicolon.
 */
const clauses = /[^.!?;。！？\n]+/gu;
const sentences = /[^.!?。！？\n]+[.!?。！？\n]*/gu;

/** The clauses of a text: what lies between sentence ends and semicolons, without them. */
export const clausesOf = (text: string): string[] => text.match(clauses) ?? [];

/** The sentences of a text, each with the marks that end it (a semicolon ends none). */
export const sentencesOf = (text: string): string[] => text.match(sentences) ?? [];
