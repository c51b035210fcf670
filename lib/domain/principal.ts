/** Who is calling: resolved from the API token by the authentication the API gives lib/http. */
export interface Principal {
  userId: string;
  tokenHash: string;
  /** The token's rate-limit window, when the API counts calls (Notes): sent as X-RateLimit-User*. */
  rate?: RateWindow;
}

/** Calls of one token in the current fixed window. */
export interface RateWindow {
  limit: number;
  /** Calls left in the window (0 when over). */
  remaining: number;
  /** Epoch seconds when the window ends and the count starts over. */
  resetAt: number;
  /** This call is over the limit (answered 429 with Retry-After). */
  exceeded: boolean;
}
