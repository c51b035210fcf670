import { describe, expect, it } from 'vitest';
import { mask } from '../../../lib/bank/enrolment.ts';

describe('sent_to masks most of the address', () => {
  it('a phone number shows its calling code and at most its last 2 digits', () => {
    expect(mask('+15551234567')).toBe('+1••••••••67');
    expect(mask('+447700900123')).toBe('+44••••••••23');
    expect(mask('+353861234567')).toBe('+353•••••••67');
    expect(mask('+79161234567')).toBe('+7••••••••67');
  });
  it('an e-mail shows its first character and its domain', () => {
    expect(mask('alice@example.org')).toBe('a•••@example.org');
  });
});
