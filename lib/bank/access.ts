// Who may act on a user's factors and tokens: the user themself, or an admin. The caller's roles are
// read only when the target is someone else, so self-service calls cost no extra read.
import { Forbidden } from '../domain/errors.ts';
import type { Admins } from './ports.ts';

export class BankAccess {
  constructor(private readonly admins: Admins) {}

  async assertMayActFor(callerId: string, userId: string): Promise<void> {
    if (callerId !== userId && !(await this.admins.isAdmin(callerId))) {
      throw new Forbidden('Only the user themself or an admin may do this');
    }
  }

  async assertAdmin(callerId: string): Promise<void> {
    if (!(await this.admins.isAdmin(callerId))) throw new Forbidden('Only an admin may do this');
  }
}
