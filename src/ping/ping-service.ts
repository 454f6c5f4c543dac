import type { ServiceImpl } from '@connectrpc/connect';
import type { PingService } from '../gen/berth/ping/v2/ping_pb.js';

/** What a ping answers, in either version. */
export const PING_ANSWER = 'pong';

export function pingService(): ServiceImpl<typeof PingService> {
  return {
    ping: () => ({ response: PING_ANSWER }),
  };
}
