/** A copy of `from` with room for `size` numbers: the engine's flat tables grow by these. */
export function grownTo(from: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const to = new Int32Array(size);
  to.set(from);
  return to;
}
