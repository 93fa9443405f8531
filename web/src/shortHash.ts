/** A long id, hash or address cut to its ends ("0x1234…cdef"), as explorers list them; short values stay whole. */
export function shortHash(value: string, keep = 6): string {
  const head = value.startsWith("0x") ? keep + 2 : keep;
  return value.length <= head + keep + 1 ? value : `${value.slice(0, head)}…${value.slice(-keep)}`;
}
