// A word for a POSIX shell command line: as it is when it holds nothing the shell reads, else quoted.
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
