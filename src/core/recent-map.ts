// A Map used as a bounded, recency-ordered cache: a key set again moves to the
// end, and once `limit` keys are held the least recently set goes first.
export function setRecent<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  map.delete(key);
  while (map.size >= limit) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
