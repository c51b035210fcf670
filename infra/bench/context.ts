/** A user as the bench and tests see it: id, path and a plain API token. */
export interface TestUserLike {
  id: string;
  name: string;
  userPath: string;
  token: string;
}
