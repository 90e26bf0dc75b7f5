import type { MemoryItem, MemoryKind, MemorySource } from '../memory-store.js';
import { deepFreeze } from '../store/memory-item.js';

/** A row of `replan_memories` as `pg` returns it (`created_at` is a bigint, so a string). */
export interface MemoryRow {
  readonly app_name: string;
  readonly user_id: string;
  readonly id: string;
  readonly kind: MemoryKind;
  readonly text: string;
  readonly metadata: Record<string, unknown> | null;
  readonly source: MemorySource | null;
  readonly created_at: string;
}

/** The columns `rowToItem` reads. */
export const ITEM_COLUMNS = 'app_name, user_id, id, kind, text, metadata, source, created_at';

/** A stored item as every store returns it: frozen, optional fields left out when empty. */
export function rowToItem(row: MemoryRow): MemoryItem {
  return deepFreeze({
    id: row.id,
    scope: row.user_id === '' ? { appName: row.app_name } : { appName: row.app_name, userId: row.user_id },
    kind: row.kind,
    text: row.text,
    ...(row.metadata !== null && { metadata: row.metadata }),
    ...(row.source !== null && { source: row.source }),
    createdAt: Number(row.created_at),
  });
}
