/**
 * A body already read and decoded, answering `text()` and `json()` as a
 * Fetch `Request` or `Response` would: what GraphQL Yoga's body parsers
 * and the HTTP executor read of one. A class, so that no function is made
 * per request.
 */
export class TextBody {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  async text() {
    return this.#text;
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.#text);
  }
}
