// The outbox sender: the code is stored in the table with the verification (same transaction), for
// the admin CLI (`npm run admin -- outbox --user ID`): the local stand-in for phones and mailboxes.
// push and device factors have no delivery service in this stack: their codes always go here.
// MfaService seals the code before it is stored, and opens it in MfaService.outbox.
import type { OutboxEntry } from '../model.ts';
import type { CodeMessage, CodeSender } from '../ports.ts';

export const outboxEntry = (m: CodeMessage): OutboxEntry => ({
  userId: m.device.userId,
  verificationId: m.verificationId,
  deviceId: m.device.id,
  channel: m.device.kind,
  to: m.device.address,
  code: m.code,
  sent: m.sent,
  expires_at: m.expires_at,
});

export const outboxSender: CodeSender = { stored: outboxEntry, deliver: async () => {} };
