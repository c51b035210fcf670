// What the demo seed hands each API's seeder, and what it prints.
export interface DemoUser {
  name: string;
  id: string;
  userPath: string;
  token: string;
  note?: string;
}
/** The Demo User's seeded OTP factor: its first step-up (printed by npm start, local only). */
export interface DemoFactor {
  deviceId: string;
  secret: string;
  otpauthUri: string;
}
export interface DemoCredentials {
  users: DemoUser[];
  team: string;
  notes: string[];
  /** Absent in a demo set saved before it was recorded. */
  otp?: DemoFactor;
}
export interface SeedContext {
  demo: DemoUser;
  alice: DemoUser;
  bob: DemoUser;
  teamPath: string;
}
