import { open, stat } from 'node:fs/promises';
import { MemoryError } from '../../memory-error.js';
import type { MemoryItem } from '../../memory-store.js';
import { toVector, type Vector } from '../embedding.js';
import type { Scope } from '../memory-rules.js';
import { deepFreeze } from '../memory-item.js';
import { ScopeIndex } from '../scope-index.js';
import { errorCode, headerLine, openForAppend } from './memory-files.js';

/** One line of a scope's log after the header: an item stored (with its vector), or an id deleted. */
type LogRecord = { readonly put: MemoryItem; readonly vector?: readonly number[] } | { readonly del: string };

export function putLine(item: MemoryItem, vector: Vector | undefined): string {
  return `${JSON.stringify(vector ? { put: item, vector: Array.from(vector.values) } : { put: item })}\n`;
}

export function deleteLine(id: string): string {
  return `${JSON.stringify({ del: id })}\n`;
}

interface Pending {
  readonly data: string;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * One scope's append-only JSONL log and what this process has read of it.
 *
 * Writes are group-committed: lines that arrive while a flush is running go out together in one
 * `O_APPEND` write and one `fdatasync`, so concurrent puts cost one flush per batch. Each batch
 * starts with a newline, so the torn tail of a writer that crashed mid-line stays a line of its own
 * (unparsable, skipped) instead of spoiling the next record.
 *
 * Reads catch up with the file before answering: the bytes past what was read (other processes'
 * appends too) are applied in file order; a file replaced or removed by another process (its
 * `forgetUser`) is read again from the start. Catching up is serialised per scope, so no record is
 * applied twice.
 */
export class ScopeLog {
  index = new ScopeIndex();
  private offset = 0;
  private inode: number | undefined;
  private pending: Pending[] = [];
  private flushing = false;
  private reading: Promise<void> = Promise.resolve();
  /** Set when the file turned out to hold another scope: every later read fails the same way. */
  private refused: MemoryError | undefined;

  constructor(
    readonly path: string,
    readonly scope: Scope,
    private readonly onVector: (vector: Vector) => void,
    private readonly describe: string,
  ) {}

  /** Appends `data` (whole lines) durably; resolves once it is flushed. */
  append(data: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ data, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        const fh = await openForAppend(this.path, headerLine(this.scope));
        try {
          await fh.write(`\n${batch.map((p) => p.data).join('')}`);
          await fh.datasync();
        } finally {
          await fh.close();
        }
        for (const p of batch) p.resolve();
      } catch (error) {
        const failure = this.failure('write', error);
        for (const p of batch) p.reject(failure);
      }
    }
    this.flushing = false;
  }

  /** Brings `index` up to date with the file (one at a time per scope). */
  catchUp(): Promise<void> {
    const next = this.reading.then(() => this.readNew());
    this.reading = next.catch(() => undefined);
    return next;
  }

  /** Forgets what was read (after this process removed the file). */
  reset(): void {
    this.index = new ScopeIndex();
    this.offset = 0;
    this.inode = undefined;
  }

  private async readNew(): Promise<void> {
    if (this.refused) throw this.refused;
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(this.path);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw this.failure('read', error);
      if (this.inode !== undefined) this.reset(); // removed by another process
      return;
    }
    if (this.inode !== undefined && (info.ino !== this.inode || info.size < this.offset)) this.reset();
    if (info.size === this.offset) return;
    let text: string;
    try {
      const fh = await open(this.path, 'r');
      try {
        const buffer = Buffer.alloc(info.size - this.offset);
        const { bytesRead } = await fh.read(buffer, 0, buffer.length, this.offset);
        const end = buffer.subarray(0, bytesRead).lastIndexOf(0x0a) + 1; // whole lines only: a line being written waits
        text = buffer.subarray(0, end).toString('utf8');
        this.offset += end;
      } finally {
        await fh.close();
      }
    } catch (error) {
      throw this.failure('read', error);
    }
    this.inode = info.ino;
    this.apply(text);
  }

  private apply(text: string): void {
    for (const line of text.split('\n')) {
      if (line === '') continue;
      let record: LogRecord | { memories: number; scope: unknown };
      try {
        record = JSON.parse(line);
      } catch {
        continue; // the torn tail of a writer that crashed mid-line (never acknowledged)
      }
      if ('memories' in record) {
        if (JSON.stringify(record.scope) !== JSON.stringify([this.scope.appName, this.scope.userId ?? null])) {
          this.reset();
          this.refused = new MemoryError(
            'unavailable',
            `${this.describe} holds another scope's memories: the file was moved or copied by hand. Put the right file back or remove it.`,
          );
          throw this.refused;
        }
      } else if ('put' in record) {
        const vector = record.vector ? toVector(record.vector) : undefined;
        if (vector) this.onVector(vector);
        this.index.add(deepFreeze(record.put), vector);
      } else if ('del' in record) this.index.remove(record.del);
    }
  }

  private failure(what: 'read' | 'write', error: unknown): MemoryError {
    if (error instanceof MemoryError) return error;
    return new MemoryError(
      'unavailable',
      `FileMemoryStore could not ${what} ${this.describe}: ${(error as Error).message}. Check the directory exists, is writable and has space.`,
      { cause: error },
    );
  }
}
