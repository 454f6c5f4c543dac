// The authenticated caller of one request, put in the handler context by the
// IAM guard. Its grants are loaded once per request, on first use.
import { createContextKey, type HandlerContext } from '@connectrpc/connect';
import type { Capability } from '../gen/berth/capabilities/v1/capabilities_pb.js';
import { capabilityMissing, tokenRequired } from './errors.js';
import type { AccessState } from './access-directory.js';
import { capabilityName } from './capability-names.js';
import { Grants } from './grants.js';
import type { TokenNarrowing } from './token-narrowing.js';
import type { TableVersions } from '../store/table-versions.js';

export class Caller {
  private grants?: Promise<Grants>;

  constructor(
    /** uid of the identity the token was issued to; "" when anonymous. */
    readonly identityUid: string,
    private readonly access?: AccessState,
    /** The token's down-scoping (its `berth_caps` and `berth_scopes` claims), applied to the live grants on every request. */
    private readonly narrowing: TokenNarrowing = {},
  ) {}

  /** The table versions read when this caller's access was checked (none when anonymous). */
  get tableVersions(): TableVersions | undefined {
    return this.access?.versions;
  }

  get anonymous(): boolean {
    return this.identityUid === '';
  }

  loadGrants(): Promise<Grants> {
    if (this.anonymous || !this.access) return Promise.resolve(Grants.none);
    this.grants ??= this.access.grants().then((g) => g.narrow(this.narrowing.caps, this.narrowing.scopes));
    return this.grants;
  }

  async can(cap: Capability, uid: string): Promise<boolean> {
    return (await this.loadGrants()).has(cap, uid);
  }

  async scopes(cap: Capability): Promise<readonly string[]> {
    return (await this.loadGrants()).scopes(cap);
  }

  /** Throws PERMISSION_DENIED unless every capability is held at `uid`. */
  async require(domain: string, caps: readonly Capability[], uid: string): Promise<void> {
    const grants = await this.loadGrants();
    const missing = caps.filter((c) => !grants.has(c, uid));
    if (missing.length > 0) {
      throw capabilityMissing(domain, missing.map(capabilityName).join(', '), uid);
    }
  }
}

export const callerKey = createContextKey<Caller | undefined>(undefined, { description: 'berth caller' });

export function callerOf(ctx: HandlerContext, domain: string): Caller {
  const caller = ctx.values.get(callerKey);
  if (!caller || caller.anonymous) throw tokenRequired(domain);
  return caller;
}
