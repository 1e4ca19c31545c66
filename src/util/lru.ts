// A bounded, approximately least-recently-used map. Map iterates in insertion order, so the first
// key is the one evicted. A hit moves its entry to the back only when at least half the capacity
// of other entries has been stamped since its last move: the hot path is then a plain Map.get,
// and an entry used at least once per half-capacity of insertions is never evicted.

type Entry<V> = { value: V; stamp: number };

export class Lru<K, V> {
  readonly #map = new Map<K, Entry<V>>();
  readonly #refreshAfter: number;
  #clock = 0;

  constructor(readonly capacity: number) {
    this.#refreshAfter = Math.max(1, capacity >> 1);
  }

  get(key: K): V | undefined {
    const entry = this.#map.get(key);
    if (entry === undefined) return undefined;
    if (this.#clock - entry.stamp >= this.#refreshAfter) {
      this.#map.delete(key);
      entry.stamp = ++this.#clock;
      this.#map.set(key, entry);
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, { value, stamp: ++this.#clock });
    if (this.#map.size > this.capacity) this.#map.delete(this.#map.keys().next().value as K);
  }

  delete(key: K): void {
    this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }

  get size(): number {
    return this.#map.size;
  }
}
