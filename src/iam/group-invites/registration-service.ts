// AuthService is served by IAM: registering with an invite code writes IAM
// rows (the invite, a role binding), and auth reads no IAM table.
import type { ServiceImpl } from '@connectrpc/connect';
import type { AuthService } from '../../gen/berth/auth/v1/auth_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { acceptInvite } from './accept-invite.js';

export function authService(deps: ServiceDeps): ServiceImpl<typeof AuthService> {
  return {
    register: (req, ctx) => acceptInvite(deps, req, ctx),
  };
}
