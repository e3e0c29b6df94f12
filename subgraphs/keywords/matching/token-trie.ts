const EMPTY = -1;
/** Labels stay below this, so (node, label) packs into one float64 key exactly. */
const LABEL_LIMIT = 1 << 22;
const INITIAL_SLOTS = 1 << 12;

function slotHash(node: number, label: number): number {
  let hash = Math.imul(node, 0x9e3779b1) ^ label;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  return hash ^ (hash >>> 13);
}

/**
 * A trie over integer labels (token ids, see term-index.ts) that hands out one
 * node id per distinct label sequence. The root's edges are a plain array by
 * label, since every token of a post tries them; deeper edges live in one
 * open-addressed hash table in typed arrays, so a large index stays a few
 * megabytes. There are no failure links: a match can only start at a token,
 * each token starts one walk, and patterns can be added at any time.
 */
export class TokenTrie {
  private rootChildren = new Int32Array(1024).fill(EMPTY);
  private keys = new Float64Array(INITIAL_SLOTS).fill(EMPTY);
  private children = new Int32Array(INITIAL_SLOTS);
  private mask = INITIAL_SLOTS - 1;
  private edgeCount = 0;
  private nodes = 1;
  /** 1 where a node has children: a walk reaching a node without any ends there. */
  private branching = new Uint8Array(1024);

  get nodeCount(): number {
    return this.nodes;
  }

  hasChildren(node: number): boolean {
    return this.branching[node] === 1;
  }

  /** Where a label sequence starting with `label` goes first, or -1. */
  rootChild(label: number): number {
    return label < this.rootChildren.length ? this.rootChildren[label] : EMPTY;
  }

  /** Child of a non-root `node` along `label`, or -1. */
  child(node: number, label: number): number {
    const key = node * LABEL_LIMIT + label;
    const { keys, mask } = this;
    for (let slot = slotHash(node, label) & mask; ; slot = (slot + 1) & mask) {
      const found = keys[slot];
      if (found === key) return this.children[slot];
      if (found === EMPTY) return EMPTY;
    }
  }

  /** Node of the label sequence, created with its missing prefixes. */
  insert(labels: readonly number[]): number {
    let node = this.rootChild(labels[0]);
    if (node === EMPTY) node = this.addRootChild(labels[0]);
    for (let index = 1; index < labels.length; index++) {
      const next = this.child(node, labels[index]);
      node = next === EMPTY ? this.addChild(node, labels[index]) : next;
    }
    return node;
  }

  private addRootChild(label: number): number {
    if (label >= LABEL_LIMIT) throw new Error(`token label ${label} is past the trie's limit`);
    if (label >= this.rootChildren.length) {
      const grown = new Int32Array(Math.max(label + 1, this.rootChildren.length * 2)).fill(EMPTY);
      grown.set(this.rootChildren);
      this.rootChildren = grown;
    }
    this.rootChildren[label] = this.nodes;
    return this.nodes++;
  }

  private addChild(node: number, label: number): number {
    if (label >= LABEL_LIMIT) throw new Error(`token label ${label} is past the trie's limit`);
    if ((this.edgeCount + 1) * 2 > this.keys.length) this.grow();
    const child = this.nodes++;
    if (child >= this.branching.length) {
      const grown = new Uint8Array(this.branching.length * 2);
      grown.set(this.branching);
      this.branching = grown;
    }
    this.branching[node] = 1;
    this.place(node * LABEL_LIMIT + label, slotHash(node, label), child);
    this.edgeCount++;
    return child;
  }

  private place(key: number, hash: number, child: number) {
    let slot = hash & this.mask;
    while (this.keys[slot] !== EMPTY) slot = (slot + 1) & this.mask;
    this.keys[slot] = key;
    this.children[slot] = child;
  }

  private grow() {
    const { keys, children } = this;
    this.keys = new Float64Array(keys.length * 2).fill(EMPTY);
    this.children = new Int32Array(keys.length * 2);
    this.mask = keys.length * 2 - 1;
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot];
      if (key === EMPTY) continue;
      const node = Math.floor(key / LABEL_LIMIT);
      this.place(key, slotHash(node, key - node * LABEL_LIMIT), children[slot]);
    }
  }
}
