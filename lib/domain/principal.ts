/** Who is calling: resolved from the API token by the authentication the API gives lib/http. */
export interface Principal { userId: string; tokenHash: string }
