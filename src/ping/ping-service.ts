import type { ServiceImpl } from '@connectrpc/connect';
import type { PingService } from '../gen/berth/ping/v2/ping_pb.js';

export function pingService(): ServiceImpl<typeof PingService> {
  return {
    ping: () => ({ response: 'pong' }),
  };
}
