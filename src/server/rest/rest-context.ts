// The HandlerContext a REST call hands the (guarded) implementation. Connect's
// createHandlerContext makes two AbortControllers, a deadline and three
// Headers objects per call, a visible share of a GET (docs/performance.md); REST calls have no
// deadline, so the signal and the response headers (which REST does not send)
// are made only if an implementation asks for them.
import type { DescMethod, DescService } from '@bufbuild/protobuf';
import { createContextValues, type HandlerContext } from '@connectrpc/connect';
import { remoteAddressKey } from '../../core/remote-address.js';
import { requestRecordKey, type RequestRecord } from '../../core/request-record.js';

export function restContext(
  service: DescService,
  method: DescMethod,
  requestMethod: string,
  url: string,
  requestHeader: Record<string, string>,
  remoteAddress = '',
  record?: RequestRecord,
): HandlerContext {
  let controller: AbortController | undefined;
  let responseHeader: Headers | undefined;
  let responseTrailer: Headers | undefined;
  return {
    service,
    method,
    protocolName: 'rest',
    requestMethod,
    url,
    requestHeader: new Headers(requestHeader),
    timeoutMs: () => undefined,
    values: createContextValues().set(remoteAddressKey, remoteAddress).set(requestRecordKey, record),
    get signal() {
      controller ??= new AbortController();
      return controller.signal;
    },
    get responseHeader() {
      responseHeader ??= new Headers();
      return responseHeader;
    },
    get responseTrailer() {
      responseTrailer ??= new Headers();
      return responseTrailer;
    },
  };
}
