// A bounded, approximately least-recently-used map, as two generations: new entries go into the
// young map; when it holds half the capacity, it becomes the old map and the old one is dropped
// whole. A hit in the old map moves the entry back to the young one. So an entry used at least
// once per half-capacity of insertions is never evicted, the hot path is a plain Map.get, and
// eviction costs nothing per entry.
//
// Why not one Map, evicting its first key: a Map that is deleted from at its front keeps the
// deleted slots until it is rebuilt, and `keys().next()` walks over them. Measured on the click
// thread's country cache under a stream of new addresses: 6.5 µs a miss instead of 1.3 µs.

export class Lru<K, V> {
  #young = new Map<K, V>();
  #old = new Map<K, V>();
  readonly #half: number;

  constructor(readonly capacity: number) {
    this.#half = Math.max(1, capacity >> 1);
  }

  get(key: K): V | undefined {
    const young = this.#young.get(key);
    if (young !== undefined) return young;
    const old = this.#old.get(key);
    if (old === undefined) return undefined;
    // The old map is never walked, only dropped: deleting from it leaves nothing to pay for later.
    this.#old.delete(key);
    this.#add(key, old);
    return old;
  }

  set(key: K, value: V): void {
    this.#old.delete(key);
    if (this.#young.has(key)) this.#young.set(key, value);
    else this.#add(key, value);
  }

  delete(key: K): void {
    this.#young.delete(key);
    this.#old.delete(key);
  }

  clear(): void {
    this.#young = new Map();
    this.#old = new Map();
  }

  get size(): number {
    return this.#young.size + this.#old.size;
  }

  #add(key: K, value: V): void {
    if (this.#young.size >= this.#half) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, value);
  }
}
