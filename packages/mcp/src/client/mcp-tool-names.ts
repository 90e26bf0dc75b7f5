/** What every provider accepts as a tool name. */
const MAX_NAME = 64;

/** A name made acceptable to providers (`^[a-zA-Z0-9_-]{1,64}$`): other characters become `_`. */
export function sanitiseToolName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, MAX_NAME);
  return clean || 'tool';
}

const joinName = (prefix: string, name: string) => sanitiseToolName(`${prefix}_${name}`);

/**
 * Gives each MCP tool the name the model sees, and keeps it: once `search` is `docs_search`, it
 * stays so across list refreshes, so agents built earlier keep calling the same tool.
 * A name that collides with a taken one (another tool of the agent, another server, or a sibling
 * after sanitising) gets the server's name as prefix, then a number.
 */
export class ToolNamer {
  private readonly given = new Map<string, string>();

  constructor(
    private readonly serverName: string,
    private readonly prefix: string | undefined,
    private readonly taken: () => ReadonlySet<string>,
  ) {}

  nameOf(mcpName: string): string {
    const known = this.given.get(mcpName);
    if (known) return known;
    const used = new Set([...this.taken(), ...this.given.values()]);
    const base = this.prefix ? joinName(this.prefix, mcpName) : sanitiseToolName(mcpName);
    let name = base;
    if (used.has(name)) name = joinName(this.serverName, this.prefix ? base : mcpName);
    for (let n = 2; used.has(name); n++) {
      const suffix = `_${n}`;
      name = `${joinName(this.serverName, mcpName).slice(0, MAX_NAME - suffix.length)}${suffix}`;
    }
    this.given.set(mcpName, name);
    return name;
  }
}
