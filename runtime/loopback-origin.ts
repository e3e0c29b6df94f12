/** The names of this machine's loopback interface, as URL hostnames spell them. */
export const loopbackHostnames: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `http://localhost:4000` and `http://127.0.0.1:4000` are one server on this
 * machine, reached under two names. Only loopback names count, so a rebound
 * foreign name still differs.
 */
export function sameLoopbackOrigin(one: string, other: string): boolean {
  if (!URL.canParse(one) || !URL.canParse(other)) return false;
  const [a, b] = [new URL(one), new URL(other)];
  return a.protocol === b.protocol && a.port === b.port && loopbackHostnames.has(a.hostname) && loopbackHostnames.has(b.hostname);
}
