// The container's bank services, over the DynamoDB adapter.
import { config } from '../config.ts';
import { DynamoBankStore } from './dynamo-store.ts';
import { IdempotencyKeys } from './idempotency.ts';
import { MfaService } from './mfa.ts';
import { codeSender } from './senders.ts';
import { TransferService } from './transfers.ts';

export const bankStore = new DynamoBankStore(() => config.tableName);
export const transfers = new TransferService(bankStore, () => config.transferStepUpAmount);
export const mfa = new MfaService(bankStore, codeSender);
export const idempotencyKeys = new IdempotencyKeys(bankStore);
