// The caller's IP address as the listener saw it (Fastify's request.ip), put
// in every RPC's context by the REST and Connect transports, so the audit log
// can say where a change came from without domain code reading a transport.
import { createContextKey } from '@connectrpc/connect';

export const remoteAddressKey = createContextKey<string>('', { description: 'berth remote address' });
