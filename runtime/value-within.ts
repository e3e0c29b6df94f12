/**
 * What `work` resolves to if it settles within `ms`, else undefined; `work`
 * goes on, no longer waited for. A rejection within `ms` rejects.
 */
export async function valueWithin<Value>(work: Promise<Value>, ms: number): Promise<Value | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms), undefined);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
