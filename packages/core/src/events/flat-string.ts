/**
 * `s`, stored flat. V8 keeps a joined string as a tree of its pieces until something reads it
 * whole — `crypto.randomUUID()` builds its 36 characters from about twenty pieces — and a stored
 * event keeps its ids for as long as its session is in memory: as trees they took ~45 KB of a
 * 50-iteration run's ~100 KB (bench/react-overhead.ts). Converting to a number reads the whole
 * string, which flattens it in place (the garbage collector then drops the pieces).
 */
export function flatString(s: string): string {
  (s as unknown as number) | 0;
  return s;
}
