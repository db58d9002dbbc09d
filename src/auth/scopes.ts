// Scopes a key may hold. An endpoint declares the one it needs (RouteDef.scope).
// `payments` exists for the payments product and is never granted by default.
export const SCOPES = ['geo', 'routing', 'maps', 'logistics', 'tracking', 'fleet', 'traffic', 'weather', 'payments'] as const;
export type Scope = (typeof SCOPES)[number];
export const DEFAULT_SCOPES: Scope[] = SCOPES.filter((s) => s !== 'payments');

export const PLANS = { free: 1000, developer: 50000, enterprise: Infinity } as const;
export type Plan = keyof typeof PLANS;
