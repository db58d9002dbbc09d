// What a request's key grants, as the authenticator resolves it; shared by auth, quotas and the HTTP core.

/** The key a request was authenticated with (never the secret itself). */
export interface KeyInfo {
  id: string;
  project: string;
  plan: 'free' | 'developer' | 'enterprise';
  scopes: string[];
  /** svc_test_ key: sandbox, never touches live data. */
  test: boolean;
  /** Browser key: the web origins it may be used from (null for server keys). */
  origins?: string[] | null;
  /** Per-key burst limit (requests per second); null = the server's BURST_RPS. */
  burstRps?: number | null;
}
