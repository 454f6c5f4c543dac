// gRPC status codes: their names and the one table mapping them to HTTP status
// (the standard gRPC-to-HTTP mapping used by grpc-gateway).
import { Code } from '@connectrpc/connect';

const HTTP_STATUS: Record<Code, number> = {
  [Code.Canceled]: 499,
  [Code.Unknown]: 500,
  [Code.InvalidArgument]: 400,
  [Code.DeadlineExceeded]: 504,
  [Code.NotFound]: 404,
  [Code.AlreadyExists]: 409,
  [Code.PermissionDenied]: 403,
  [Code.ResourceExhausted]: 429,
  [Code.FailedPrecondition]: 400,
  [Code.Aborted]: 409,
  [Code.OutOfRange]: 400,
  [Code.Unimplemented]: 501,
  [Code.Internal]: 500,
  [Code.Unavailable]: 503,
  [Code.DataLoss]: 500,
  [Code.Unauthenticated]: 401,
};

const NAMES: Record<Code, string> = {
  [Code.Canceled]: 'CANCELLED',
  [Code.Unknown]: 'UNKNOWN',
  [Code.InvalidArgument]: 'INVALID_ARGUMENT',
  [Code.DeadlineExceeded]: 'DEADLINE_EXCEEDED',
  [Code.NotFound]: 'NOT_FOUND',
  [Code.AlreadyExists]: 'ALREADY_EXISTS',
  [Code.PermissionDenied]: 'PERMISSION_DENIED',
  [Code.ResourceExhausted]: 'RESOURCE_EXHAUSTED',
  [Code.FailedPrecondition]: 'FAILED_PRECONDITION',
  [Code.Aborted]: 'ABORTED',
  [Code.OutOfRange]: 'OUT_OF_RANGE',
  [Code.Unimplemented]: 'UNIMPLEMENTED',
  [Code.Internal]: 'INTERNAL',
  [Code.Unavailable]: 'UNAVAILABLE',
  [Code.DataLoss]: 'DATA_LOSS',
  [Code.Unauthenticated]: 'UNAUTHENTICATED',
};

/** Human prefix of every error message, e.g. "Invalid argument: ". */
const PREFIXES: Record<Code, string> = {
  [Code.Canceled]: 'Cancelled',
  [Code.Unknown]: 'Unknown error',
  [Code.InvalidArgument]: 'Invalid argument',
  [Code.DeadlineExceeded]: 'Deadline exceeded',
  [Code.NotFound]: 'Not found',
  [Code.AlreadyExists]: 'Already exists',
  [Code.PermissionDenied]: 'Permission denied',
  [Code.ResourceExhausted]: 'Resource exhausted',
  [Code.FailedPrecondition]: 'Precondition failed',
  [Code.Aborted]: 'Aborted',
  [Code.OutOfRange]: 'Out of range',
  [Code.Unimplemented]: 'Unimplemented',
  [Code.Internal]: 'Internal error',
  [Code.Unavailable]: 'Unavailable',
  [Code.DataLoss]: 'Data loss',
  [Code.Unauthenticated]: 'Unauthenticated',
};

export function httpStatusOf(code: Code): number {
  return HTTP_STATUS[code] ?? 500;
}

export function codeName(code: Code): string {
  return NAMES[code] ?? 'UNKNOWN';
}

export function messagePrefix(code: Code): string {
  return PREFIXES[code] ?? 'Error';
}
