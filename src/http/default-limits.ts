// The connection limits and their defaults, apart from the servers that
// apply them (connection-limits.ts): `berth serve` shows the defaults in its
// help without loading node:http.
export interface ConnectionLimits {
  /** Most open connections; further ones are closed as they arrive. */
  maxConnections: number;
  /** Longest a connection, or an HTTP/2 stream, may send and receive nothing. */
  idleTimeoutMs: number;
  /** Longest a client may take to send a request's headers, or an HTTP/2 client its SETTINGS. */
  headersTimeoutMs: number;
  /** Longest a client may take to send a whole request. */
  requestTimeoutMs: number;
}

export const DEFAULT_LIMITS: ConnectionLimits = {
  maxConnections: 1024,
  idleTimeoutMs: 30_000,
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 60_000,
};
