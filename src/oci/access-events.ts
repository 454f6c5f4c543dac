// The registry's access events, as the reference's registry emits them:
// registry.push.v1 when a manifest (or a blob) is stored, registry.pull.v1
// when one is read. The body is the reference's snake_case access record,
// not a proto message; the event belongs to the repo's group, its subject is
// the repo, and its actor the identity of the token (none for anonymous
// pulls). Where they are written: push events in the transaction of the push
// (manifest-routes.ts, upload-routes.ts), pull events through the pull log
// (pull-event-log.ts) before the response goes out. A manifest push is audited
// (registry.push, through the outbox); a blob push is not, as its content is
// reachable only once a manifest that lists it is pushed, and pulls change nothing.
import type { FastifyRequest } from 'fastify';
import { nowIso } from '../core/clock.js';
import { parentOf } from '../core/uidp.js';
import type { NewEvent } from '../events/outbox.js';
import type { RegistryAccess } from './authorize-repo.js';

export const PUSH_EVENT = 'registry.push.v1';
export const PULL_EVENT = 'registry.pull.v1';
/** The bodytype of the access records (not proto messages; named as the reference's Go types are). */
export const PUSH_BODY_TYPE = 'berth.registry.PushEvent';
export const PULL_BODY_TYPE = 'berth.registry.PullEvent';

/** Longest user agent kept; clients send a few hundred characters at most. */
const MAX_USER_AGENT = 512;

/** Who made a registry request, and from where: the parts of an access record a route does not decide. */
export interface AccessOrigin {
  /** The repository as named in the request, `<org>/<path>`. */
  repository: string;
  /** The identity of the token; "" for an anonymous registry token. */
  actor: string;
  remoteAddress: string;
  userAgent: string;
}

export function originOf(request: FastifyRequest, access: RegistryAccess): AccessOrigin {
  const agent = request.headers['user-agent'];
  return {
    repository: access.target.name,
    actor: access.subject,
    remoteAddress: request.ip ?? '',
    userAgent: typeof agent === 'string' ? agent.slice(0, MAX_USER_AGENT) : '',
  };
}

export interface AccessRecord {
  repoUid: string;
  digest: string;
  type: 'manifest' | 'blob';
  /** The tag the request named, when it named one. */
  tag?: string;
  /** GET or HEAD; pulls only. */
  method?: 'GET' | 'HEAD';
}

function accessEvent(kind: 'push' | 'pull', origin: AccessOrigin, r: AccessRecord): NewEvent {
  const group = parentOf(r.repoUid);
  return {
    type: kind === 'push' ? PUSH_EVENT : PULL_EVENT,
    audience: 'customer',
    group,
    subject: r.repoUid,
    actor: origin.actor === '' ? undefined : origin.actor,
    body: {
      repository: origin.repository,
      repo_id: r.repoUid,
      ...(r.tag === undefined ? {} : { tag: r.tag }),
      digest: r.digest,
      ...(r.method === undefined ? {} : { method: r.method }),
      type: r.type,
      when: nowIso(),
      remote_address: origin.remoteAddress,
      user_agent: origin.userAgent,
    },
    bodyType: kind === 'push' ? PUSH_BODY_TYPE : PULL_BODY_TYPE,
    extensions: { group },
    audit:
      kind === 'push' && r.type === 'manifest'
        ? {
            action: 'registry.push',
            address: origin.remoteAddress,
            resourceType: 'registry.manifest',
            resourceName: `${origin.repository}${r.tag === undefined ? '' : `:${r.tag}`}@${r.digest}`,
          }
        : false,
  };
}

export const pushEvent = (origin: AccessOrigin, r: AccessRecord): NewEvent => accessEvent('push', origin, r);
export const pullEvent = (origin: AccessOrigin, r: Required<Pick<AccessRecord, 'method'>> & AccessRecord): NewEvent => accessEvent('pull', origin, r);
