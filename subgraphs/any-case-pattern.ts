/**
 * A regular expression (as text, anchored) matching any of `words` in any
 * letter case, for input read case-insensitively: JSON Schema's patterns,
 * which `openapi.json` and the MCP tool list carry, have no flag for it.
 */
export const anyCasePattern = (words: readonly string[]) =>
  `^(?:${words.map((word) => [...word].map((character) => (/[a-z]/i.test(character) ? `[${character.toUpperCase()}${character.toLowerCase()}]` : character)).join('')).join('|')})$`;
