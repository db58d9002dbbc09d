/** `--name N` from a bench's arguments as a number, or `def` when it is not given. */
export function numArg(args: string[], name: string, def: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
}
