/** Items by a key, each list in the items' order. */
export function groupBy<T, K = string>(items: readonly T[], key: (t: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const i of items) {
    const k = key(i);
    const list = map.get(k);
    if (list) list.push(i);
    else map.set(k, [i]);
  }
  return map;
}
