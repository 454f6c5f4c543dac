// The bearer tokens of deliveries, minted by Berth's issuer and reused: a
// token says who it is for (sub webhook:<group>) and what body it vouches
// for (webhook.digest), so every subscription of one group receiving one
// event, and every retry of it, can carry the same token while it has most
// of its life left. Signing is the largest part of a delivery's CPU time;
// ten subscriptions of a group cost one signature per event, not ten.
import type { Issuer } from '../../auth/issuer.js';
import { setRecent } from '../../core/recent-map.js';

/** How long a delivery's token is valid: long enough for a slow sink, short enough to be useless later. */
export const DELIVERY_TOKEN_TTL_SECONDS = 300;
/** A cached token is used only while at least this much of it is left. */
const MIN_LEFT_MS = 240_000;
const MAX_ENTRIES = 4096;

export class DeliveryTokens {
  // The promise is cached, so deliveries of one event starting together share one signature.
  private readonly cache = new Map<string, { token: Promise<string>; expiresAt: number }>();

  constructor(
    private readonly issuer: Issuer,
    /** --event-audience: the aud claim. */
    private readonly audience: string,
  ) {}

  token(group: string, digest: string): Promise<string> {
    const key = `${group}\u0000${digest}`;
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.expiresAt - now >= MIN_LEFT_MS) return hit.token;
    const token = this.issuer.mint(`webhook:${group}`, this.audience, { 'webhook.digest': digest }, DELIVERY_TOKEN_TTL_SECONDS).then((t) => t.token);
    // Expiry as minted (to the second, from now): a failed mint is not kept.
    setRecent(this.cache, key, { token, expiresAt: now + DELIVERY_TOKEN_TTL_SECONDS * 1000 - 1000 }, MAX_ENTRIES);
    token.catch(() => this.cache.delete(key));
    return token;
  }
}
