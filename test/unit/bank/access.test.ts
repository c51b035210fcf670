import { describe, expect, it } from 'vitest';
import { Forbidden } from '../../../lib/domain/errors.ts';
import { bank } from './fixture.ts';

describe('BankAccess', () => {
  it('lets users act for themselves', async () => {
    await expect(bank().access.assertMayActFor('u1', 'u1')).resolves.toBeUndefined();
  });

  it('lets an admin act for another user', async () => {
    await expect(bank(['admin']).access.assertMayActFor('admin', 'u1')).resolves.toBeUndefined();
  });

  it('forbids acting for another user', async () => {
    await expect(bank().access.assertMayActFor('u2', 'u1')).rejects.toBeInstanceOf(Forbidden);
  });

  it('forbids admin-only actions to others', async () => {
    await expect(bank().access.assertAdmin('u1')).rejects.toBeInstanceOf(Forbidden);
  });
});
