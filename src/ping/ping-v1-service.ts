import type { ServiceImpl } from '@connectrpc/connect';
import type { PingService } from '../gen/berth/ping/v1/ping_pb.js';
import { PING_ANSWER } from './ping-service.js';

/** berth.ping.v1.PingService: the v2 answer in v1's message (Response). */
export function pingV1Service(): ServiceImpl<typeof PingService> {
  return {
    ping: () => ({ response: PING_ANSWER }),
  };
}
