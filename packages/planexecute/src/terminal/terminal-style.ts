/** Colours for a terminal; identity functions when colour is off (not a TTY, or `NO_COLOR`). */
export function terminalStyle(color: boolean) {
  const paint = (code: string) => (text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  return {
    dim: paint('2'),
    bold: paint('1'),
    cyan: paint('36'),
    green: paint('32'),
    yellow: paint('33'),
    red: paint('31'),
    magenta: paint('35'),
  };
}

export type TerminalStyle = ReturnType<typeof terminalStyle>;

/** One line of at most `max` characters, whitespace collapsed. */
export const clip = (text: string, max = 110): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** `850 ms`, `1.2 s`. */
export const duration = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
