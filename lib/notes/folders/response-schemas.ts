// valibot schemas that only describe the folder routes' responses (the kernel's shared ones: ../kernel/
// response-schemas.ts); infra/openapi/notes.ts documents them. No function imports this module.
// Answers are documented closed (v.strictObject): the API sends no other field.
import * as v from 'valibot';
import { described } from '../kernel/response-schemas.ts';
import { order } from './schemas.ts';

export const apiFolder = v.strictObject({
  id: v.string(),
  name: v.string(),
  description: v.nullable(v.string()),
  icon: v.nullable(v.string()),
  color: v.nullable(v.string()),
  parentFolderId: v.nullable(v.string()),
  createdAt: described(v.number(), 'epoch milliseconds'),
  updatedAt: described(v.number(), 'epoch milliseconds'),
});
export const apiFolderOrder = order;
