/** A getter that builds its value on first call and returns the same value after (wiring). */
export const once = <T>(build: () => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= build());
};
