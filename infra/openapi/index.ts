// One builder per API; each lives beside this file (notes.ts, news.ts, bank.ts).
export const builders: Record<string, () => unknown> = {};
