import type { Embedder, MemoryItem, NewMemory } from '../memory-store.js';
import type { Vector } from './embedding.js';
import { StoreEmbedder } from './indexed-search.js';
import { newMemoryId } from './memory-ids.js';
import { memoryItem } from './memory-item.js';
import { checkNewMemory, type MemoryLimits, type ResolvedLimits, resolveLimits, type Scope } from './memory-rules.js';

/** A new item, checked and embedded, not yet stored. */
export interface PreparedMemory {
  readonly scope: Scope;
  readonly item: MemoryItem;
  /** Its vector, with an embedder. */
  readonly vector: Vector | undefined;
}

/** What every store does the same way before it writes: limits, the embedder, making the item. */
export class StoreCore {
  readonly limits: ResolvedLimits;
  readonly embedder: StoreEmbedder;

  constructor(store: string, options: { readonly embed?: Embedder | undefined; readonly limits?: MemoryLimits | undefined }) {
    this.limits = resolveLimits(store, options.limits);
    this.embedder = new StoreEmbedder(options.embed);
  }

  /** Checks `memory`, embeds its text and makes the item (id, time, frozen); throws before anything is stored. */
  async prepare(memory: NewMemory): Promise<PreparedMemory> {
    const checked = checkNewMemory(memory, this.limits);
    const [vector] = (await this.embedder.vectors([checked.text])) ?? [];
    return { scope: checked.scope, item: memoryItem(checked, newMemoryId(), Date.now()), vector };
  }
}
