// Who may act on /api/users/{userId}/...: the user themself, or an admin. The caller's roles are
// read only when the target is someone else, so self-service calls cost no extra read.
import { forbidden } from '../http/errors.ts';
import { identity } from '../identity/service.ts';

const isAdmin = async (userId: string) => (await identity.getUser(userId))?.roles.includes('admin') ?? false;

export async function assertMayActFor(callerId: string, userId: string): Promise<void> {
  if (callerId !== userId && !(await isAdmin(callerId))) throw forbidden('Only the user themself or an admin may do this');
}

export async function assertAdmin(callerId: string): Promise<void> {
  if (!(await isAdmin(callerId))) throw forbidden('Only an admin may do this');
}
