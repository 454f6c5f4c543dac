// The HandlerContext a REST call hands the (guarded) implementation. Connect's
// createHandlerContext makes two AbortControllers, a deadline and three
// Headers objects per call, a visible share of a GET (docs/performance.md); REST calls have no
// deadline, so the signal and the response headers (which REST does not send)
// are made only if an implementation asks for them.
import type { DescMethod, DescService } from '@bufbuild/protobuf';
import { createContextValues, type ContextValues, type HandlerContext } from '@connectrpc/connect';
import { remoteAddressKey } from '../../core/remote-address.js';
import { requestRecordKey, type RequestRecord } from '../../core/request-record.js';

/**
 * The few request headers REST forwards, as a Headers: `get` and `has` read the
 * plain record (what the guard asks, for `authorization`); anything else builds
 * the undici Headers first, whose construction was a visible share of a GET.
 */
class ForwardedHeaders {
  #full: Headers | undefined;

  constructor(private readonly raw: Record<string, string>) {}

  private full(): Headers {
    this.#full ??= new Headers(this.raw);
    return this.#full;
  }

  get(name: string): string | null {
    if (this.#full) return this.#full.get(name);
    const key = name.toLowerCase();
    return Object.hasOwn(this.raw, key) ? this.raw[key] : null;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  append(name: string, value: string): void {
    this.full().append(name, value);
  }

  delete(name: string): void {
    this.full().delete(name);
  }

  set(name: string, value: string): void {
    this.full().set(name, value);
  }

  getSetCookie(): string[] {
    return this.full().getSetCookie();
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.full().forEach(callback, thisArg);
  }

  entries(): ReturnType<Headers['entries']> {
    return this.full().entries();
  }

  keys(): ReturnType<Headers['keys']> {
    return this.full().keys();
  }

  values(): ReturnType<Headers['values']> {
    return this.full().values();
  }

  [Symbol.iterator](): ReturnType<Headers['entries']> {
    return this.full()[Symbol.iterator]();
  }
}

// A class, not an object literal: a literal's getters are new closures and
// accessor pairs on every call.
class RestContext implements HandlerContext {
  readonly protocolName = 'rest';
  readonly requestHeader: Headers;
  readonly values: ContextValues;
  #controller: AbortController | undefined;
  #responseHeader: Headers | undefined;
  #responseTrailer: Headers | undefined;

  constructor(
    readonly service: DescService,
    readonly method: DescMethod,
    readonly requestMethod: string,
    readonly url: string,
    requestHeader: Record<string, string>,
    remoteAddress: string,
    record: RequestRecord | undefined,
  ) {
    this.requestHeader = new ForwardedHeaders(requestHeader) as unknown as Headers;
    this.values = createContextValues().set(remoteAddressKey, remoteAddress).set(requestRecordKey, record);
  }

  timeoutMs(): undefined {
    return undefined;
  }

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  get responseHeader(): Headers {
    this.#responseHeader ??= new Headers();
    return this.#responseHeader;
  }

  get responseTrailer(): Headers {
    this.#responseTrailer ??= new Headers();
    return this.#responseTrailer;
  }
}

export function restContext(
  service: DescService,
  method: DescMethod,
  requestMethod: string,
  url: string,
  requestHeader: Record<string, string>,
  remoteAddress = '',
  record?: RequestRecord,
): HandlerContext {
  return new RestContext(service, method, requestMethod, url, requestHeader, remoteAddress, record);
}
