import type { MemoryItem } from '../memory-store.js';
import type { CheckedMemory } from './memory-rules.js';

/** Freezes `value` and everything in it (items read back from storage are frozen like new ones). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * The stored item for a checked input: frozen (metadata included), so neither the caller's later
 * changes nor a reader's can alter what the store holds. Optional fields are left out, not
 * `undefined`, so every store returns equal objects.
 */
export function memoryItem(memory: CheckedMemory, id: string, createdAt: number): MemoryItem {
  const scope =
    memory.scope.userId === undefined ? { appName: memory.scope.appName } : { appName: memory.scope.appName, userId: memory.scope.userId };
  return deepFreeze({
    id,
    scope,
    kind: memory.kind,
    text: memory.text,
    ...(memory.metadata !== undefined && { metadata: memory.metadata }),
    ...(memory.source !== undefined && { source: memory.source }),
    createdAt,
  });
}
