/**
 * `s`, flattened: V8 keeps a joined string as a tree of its pieces until something reads it
 * whole; converting to a number reads it, which copies it into one flat string the tree then
 * points to (the pieces become garbage). For joined strings kept in every stored event.
 */
export function flatString(s: string): string {
  (s as unknown as number) | 0;
  return s;
}
