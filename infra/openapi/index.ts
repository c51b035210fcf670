// One builder per API; each lives beside this file.
import { buildBankDocument } from './bank.ts';
import { buildNewsDocument } from './news.ts';
import { buildNotesDocument } from './notes.ts';

export const builders: Record<string, () => unknown> = {
  notes: buildNotesDocument,
  news: buildNewsDocument,
  bank: buildBankDocument,
};
