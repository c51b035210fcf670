// Voice reads the code aloud, SMS texts it: with CODE_SENDER=aws the sender calls End User Messaging
// SMS and Voice v2 (SendVoiceMessage, SendTextMessage) through the real SDK client, here pointed at a
// loopback stand-in of the service (AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2): from the origination
// identity configured, with a time to live no longer than the code's, and the code it reads is the
// one the verification accepts. The same variables given to `npm start` reach the functions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullMfaWithTotp, verificationStarter, verifier } from '../../lib/bank/wiring.ts';
import { functionEnvironment, type LocalStack } from '../../infra/local/stack.ts';
import { newUser } from '../support/identity.ts';
import { uniquePhone } from './helpers.ts';
import { type SmsVoiceStandIn, startSmsVoiceStandIn } from '../support/sms-voice-stand-in.ts';

const ORIGINATION = '+15550001111';
let standIn: SmsVoiceStandIn;
const saved: Record<string, string | undefined> = {};
const set = (name: string, value: string) => {
  saved[name] = process.env[name];
  process.env[name] = value;
};

beforeAll(async () => {
  standIn = await startSmsVoiceStandIn();
  set('CODE_SENDER', 'aws');
  set('SMS_VOICE_ORIGINATION_IDENTITY', ORIGINATION);
  set('AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2', standIn.url);
});
afterAll(async () => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  await standIn.close();
});

const noLog = () => {};

describe('voice and SMS codes through End User Messaging SMS and Voice v2', () => {
  it('a voice factor gets the code read aloud (SendVoiceMessage); it is the code verify accepts', async () => {
    const u = await newUser();
    const phone = uniquePhone('+44207');
    const { device } = await fullMfaWithTotp().enroll({ userId: u.id, kind: 'voice', phone });
    const started = await verificationStarter().startVerification(u.id, device.id, undefined, noLog);
    const call = standIn.sent.find((m) => m.body.DestinationPhoneNumber === phone);
    expect(call?.operation).toBe('SendVoiceMessage');
    expect(call!.headers['x-amz-target']).toBe('PinpointSMSVoiceV2.SendVoiceMessage');
    expect(call!.body).toMatchObject({ OriginationIdentity: ORIGINATION, MessageBodyTextType: 'TEXT' });
    expect(call!.body.TimeToLive).toBeLessThanOrEqual(started.expires_at - Math.floor(Date.now() / 1000) + 1);
    // Spoken digit by digit: "1, 2, 3, 4, 5, 6".
    const spoken = /code is ((?:\d, ){5}\d)/.exec(String(call!.body.MessageBody));
    expect(spoken, String(call!.body.MessageBody)).not.toBeNull();
    const code = spoken![1].replaceAll(', ', '');
    const verified = await verifier().verify(u.id, started.id, { code }, noLog);
    expect(verified.status).toBe('approved');
  });

  it('an sms factor gets a text (SendTextMessage), transactional, from the same identity', async () => {
    const u = await newUser();
    const phone = uniquePhone();
    const { device } = await fullMfaWithTotp().enroll({ userId: u.id, kind: 'sms', phone });
    await verificationStarter().startVerification(u.id, device.id, undefined, noLog);
    const call = standIn.sent.find((m) => m.body.DestinationPhoneNumber === phone);
    expect(call?.operation).toBe('SendTextMessage');
    expect(call!.body).toMatchObject({ OriginationIdentity: ORIGINATION, MessageType: 'TRANSACTIONAL' });
    expect(String(call!.body.MessageBody)).toMatch(/Your verification code is \d{6}\./);
    expect(call!.body.TimeToLive).toBeGreaterThanOrEqual(5);
    expect(call!.body.TimeToLive).toBeLessThanOrEqual(600);
  });

  it('`npm start` hands CODE_SENDER, the origination identity and the endpoint variables to the functions', () => {
    const stack = {
      dynamoEndpoint: 'http://127.0.0.1:1',
      s3Endpoint: 'http://127.0.0.1:2',
      tableName: 't',
      bucketName: 'b',
      secrets: { internalApiKey: 'k', csrfSigningSecret: 'c', mfaEncryptionKey: 'm' },
    } as unknown as LocalStack;
    const env = functionEnvironment(stack, 'http://localhost:3999');
    expect(env).toMatchObject({
      CODE_SENDER: 'aws',
      SMS_VOICE_ORIGINATION_IDENTITY: ORIGINATION,
      AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2: standIn.url,
      // The stack's own endpoints are never overridden by the caller's environment.
      AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:1',
      PASSKEY_RP_ID: 'localhost',
    });
  });
});
