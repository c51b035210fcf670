// What the demo seed hands each API's seeder, and what it prints.
export interface DemoUser {
  name: string;
  id: string;
  userPath: string;
  token: string;
  note?: string;
}
export interface DemoCredentials {
  users: DemoUser[];
  team: string;
  notes: string[];
}
export interface SeedContext {
  demo: DemoUser;
  alice: DemoUser;
  bob: DemoUser;
  teamPath: string;
}
