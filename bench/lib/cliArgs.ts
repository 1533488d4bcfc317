/** The value that follows `name` among this process's arguments (`--tokens 500`), or undefined. */
export function argValue(name: string, argv: readonly string[] = process.argv.slice(2)): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}
