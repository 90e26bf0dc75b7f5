/**
 * An incremental reader of streamed plan arguments, `{"steps":[{...},{...}]}`: fed the JSON a
 * chunk at a time, it returns each element object of the root object's `steps` array as soon as
 * that object's closing brace arrives (parsed with `JSON.parse`). It tracks strings (with escaped
 * quotes, braces and `\u` escapes, split anywhere across chunks), whitespace and nesting; a
 * `steps` key inside a step, or anywhere but the root object, is not the plan's. Elements that are
 * not objects are skipped, and so is an object that does not parse: the whole plan is validated
 * when the stream ends, which reports them.
 */
export class StepStreamParser {
  private text = '';
  private pos = 0;
  /** Open containers, innermost last: `{` or `[`. */
  private readonly stack: ('{' | '[')[] = [];
  private inString = false;
  private escaped = false;
  private stringStart = 0;
  /** In the root object: the next string is a key. */
  private expectKey = false;
  private rootKey: string | undefined;
  /** The stack depth of the root's `steps` array while inside it (else -1). */
  private stepsDepth = -1;
  private elementStart = -1;

  /** Adds a chunk of the arguments; returns the step objects it completed, in order. */
  push(chunk: string): unknown[] {
    this.text += chunk;
    const out: unknown[] = [];
    for (; this.pos < this.text.length; this.pos++) {
      const c = this.text[this.pos] as string;
      if (this.inString) this.inStringChar(c);
      else this.structuralChar(c, out);
    }
    return out;
  }

  private inStringChar(c: string): void {
    if (this.escaped) this.escaped = false;
    else if (c === '\\') this.escaped = true;
    else if (c === '"') {
      this.inString = false;
      if (this.stack.length === 1 && this.expectKey) this.rootKey = decodeKey(this.text.slice(this.stringStart, this.pos + 1));
    }
  }

  private structuralChar(c: string, out: unknown[]): void {
    const depth = this.stack.length;
    switch (c) {
      case '"':
        this.inString = true;
        this.stringStart = this.pos;
        return;
      case ':':
        if (depth === 1) this.expectKey = false;
        return;
      case ',':
        if (depth === 1) this.expectKey = true;
        return;
      case '{':
      case '[':
        if (c === '[' && depth === 1 && this.rootKey === 'steps' && this.stepsDepth < 0) this.stepsDepth = 2;
        else if (c === '{' && depth === this.stepsDepth) this.elementStart = this.pos;
        this.stack.push(c);
        if (depth === 0) this.expectKey = c === '{';
        return;
      case '}':
      case ']':
        this.stack.pop();
        if (c === '}' && depth - 1 === this.stepsDepth && this.elementStart >= 0) {
          const parsed = parseObject(this.text.slice(this.elementStart, this.pos + 1));
          if (parsed !== undefined) out.push(parsed);
          this.elementStart = -1;
        } else if (c === ']' && depth === this.stepsDepth) this.stepsDepth = -Infinity; // the plan's steps array ended
        return;
      default:
        return;
    }
  }
}

/** A key as JSON wrote it (quotes included), decoded; undefined if it is not a valid string. */
function decodeKey(raw: string): string | undefined {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return undefined;
  }
}

function parseObject(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
