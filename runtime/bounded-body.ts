/**
 * A request body read no further than a limit, declared (`Content-Length`)
 * or chunked: the bytes, and whether they are the whole body. Past the limit
 * the reader is released, not cancelled, because cancelling destroys the
 * socket before the refusal can be sent. A body cut off or badly chunked
 * fails the read with the stream's error: the caller's fault, not ours.
 */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<{ bytes: Buffer; whole: boolean }> {
  if (Number(request.headers.get('content-length') ?? '0') > maxBytes) return { bytes: Buffer.alloc(0), whole: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
    size += read.value.byteLength;
    chunks.push(read.value);
    if (size > maxBytes) {
      reader!.releaseLock();
      return { bytes: Buffer.concat(chunks), whole: false };
    }
  }
  return { bytes: Buffer.concat(chunks), whole: true };
}
