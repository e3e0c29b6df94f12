/** The ISO 639-1 code of a language tag (`en`, `en-US`, `pt_BR`, `zh-Hant`), or null when it has none (NormalizedPost.language). */
export function primaryLanguage(tag: string | null | undefined): string | null {
  const primary = tag?.trim().split(/[-_]/)[0].toLowerCase();
  return primary && /^[a-z]{2}$/.test(primary) ? primary : null;
}
