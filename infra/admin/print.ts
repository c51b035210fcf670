/** Every admin command prints its result as JSON on stdout. */
export const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};
