// Every error Berth returns is a ConnectError carrying an ErrorInfo (reason =
// the code's name, domain = the service domain) plus the specific AIP-193
// detail. Services never build ConnectErrors by hand: they call the named
// factories in src/<domain>/errors.ts, which call these.
import { create } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { BadRequestSchema, ErrorInfoSchema, PreconditionFailureSchema, ResourceInfoSchema } from '../gen/google/rpc/error_details_pb.js';
import { codeName, messagePrefix } from './error-codes.js';

export interface FieldViolation {
  field: string;
  description: string;
}

function errorInfo(code: Code, domain: string) {
  return { desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason: codeName(code), domain }) };
}

function make(code: Code, domain: string, text: string, detail?: ConnectError['details'][number], metadata?: Record<string, string>): ConnectError {
  const details = [errorInfo(code, domain)];
  if (detail) details.push(detail as never);
  return new ConnectError(`${messagePrefix(code)}: ${text}`, code, metadata, details);
}

export function invalidArgument(domain: string, violations: FieldViolation[]): ConnectError {
  const text = violations.map((v) => `${v.field}: ${v.description}`).join('; ');
  return make(Code.InvalidArgument, domain, text, {
    desc: BadRequestSchema,
    value: create(BadRequestSchema, { fieldViolations: violations }),
  });
}

export function notFound(domain: string, resourceType: string, resourceName: string): ConnectError {
  return make(Code.NotFound, domain, `${resourceType} ${JSON.stringify(resourceName)} not found`, {
    desc: ResourceInfoSchema,
    value: create(ResourceInfoSchema, { resourceType, resourceName, description: 'not found' }),
  });
}

export function alreadyExists(domain: string, resourceType: string, resourceName: string, text: string): ConnectError {
  return make(Code.AlreadyExists, domain, text, {
    desc: ResourceInfoSchema,
    value: create(ResourceInfoSchema, { resourceType, resourceName, description: 'already exists' }),
  });
}

export function failedPrecondition(domain: string, type: string, description: string, subject = ''): ConnectError {
  return make(Code.FailedPrecondition, domain, description, {
    desc: PreconditionFailureSchema,
    value: create(PreconditionFailureSchema, { violations: [{ type, subject, description }] }),
  });
}

/** FAILED_PRECONDITION with ErrorInfo alone: the v1 APIs' failure, which names no violated precondition. */
export function failedPreconditionWithoutDetail(domain: string, text: string): ConnectError {
  return make(Code.FailedPrecondition, domain, text);
}

export function permissionDenied(domain: string, text: string): ConnectError {
  return make(Code.PermissionDenied, domain, text);
}

export function unauthenticated(domain: string, text: string): ConnectError {
  return make(Code.Unauthenticated, domain, text);
}

/** A request repeated sooner than allowed (HTTP 429). */
export function resourceExhausted(domain: string, text: string): ConnectError {
  return make(Code.ResourceExhausted, domain, text);
}

export function unimplemented(domain: string, text: string): ConnectError {
  return make(Code.Unimplemented, domain, text);
}

/** Seconds a client is asked to wait before retrying an UNAVAILABLE request. */
export const RETRY_AFTER_SECONDS = 1;

/** A transient failure (the database cannot be reached); clients should retry. Retry-After travels as metadata. */
export function unavailable(domain: string, text: string): ConnectError {
  return make(Code.Unavailable, domain, text, undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) });
}

/** The database cannot be reached (cause logged, never shown). */
export function databaseUnavailable(domain: string): ConnectError {
  return unavailable(domain, 'the database is unavailable; retry shortly');
}

/** For failures whose cause is logged, never shown. */
export function internalError(domain: string): ConnectError {
  return make(Code.Internal, domain, 'the server could not complete the request');
}
