/**
 * A keyword record without `polling`, for comparing one request's answer
 * with another's: the poll schedule moves on with the workers, on its own.
 */
export function comparableKeyword(keyword: Record<string, any>): Record<string, any> {
  const { polling: _polling, ...rest } = keyword;
  return rest;
}
