/** WASI host: wasi:http outgoing requests through the network policy. */
import { checkUrl, DEFAULT_MAX_REQUEST_BYTES, DEFAULT_NETWORK_TIMEOUT_MS, type Refusal } from '../network-policy.ts';
import { fetchSync } from '../sync-fetch.ts';
import type { NetworkGrant } from '../types.ts';
import type { HostContext } from './context.ts';
import { Fields } from './http-fields.ts';
import { BufferSource, concatChunks, failed, InputStream, OutputStream, Pollable, type ByteSink } from './streams.ts';

/**
 * wasi:http/outgoing-handler and the parts of wasi:http/types a client uses,
 * under one NetworkGrant and the shared network policy. The guest's call is
 * synchronous, so the request is made by a child process while this thread
 * blocks (sync-fetch.ts `fetchSync`); the allowlist is checked here first
 * so a refused URL costs nothing.
 */

type Method = { tag: 'get' | 'head' | 'post' | 'put' | 'delete' | 'connect' | 'options' | 'trace' | 'patch' } | { tag: 'other'; val: string };
type Scheme = { tag: 'HTTP' } | { tag: 'HTTPS' } | { tag: 'other'; val: string };
type ErrorCode = { tag: string; val?: unknown };

function refusalCode(r: Refusal): ErrorCode {
  switch (r.code) {
    case 'blocked-address':
      return { tag: 'destination-IP-prohibited' };
    case 'not-allowed':
    case 'scheme':
      return { tag: 'HTTP-request-denied' };
    case 'invalid-url':
      return { tag: 'HTTP-request-URI-invalid' };
    case 'dns':
      return { tag: 'DNS-error', val: { rcode: r.reason, infoCode: undefined } };
    case 'request-too-large':
      return { tag: 'HTTP-request-body-size', val: undefined };
    case 'response-too-large':
      return { tag: 'HTTP-response-body-size', val: undefined };
    case 'timeout':
      return { tag: 'connection-timeout' };
    case 'connection':
      return { tag: 'internal-error', val: r.reason };
  }
}

class BodySink implements ByteSink {
  readonly chunks: Uint8Array[] = [];
  size = 0;
  constructor(private readonly cap: number) {}
  write(bytes: Uint8Array): void {
    if (this.size + bytes.length > this.cap) throw failed(`request body over the ${this.cap}-byte limit`);
    this.chunks.push(bytes.slice());
    this.size += bytes.length;
  }
  bytes(): Uint8Array {
    return concatChunks(this.chunks, this.size);
  }
}

/**
 * `report` receives the policy's reason for each refused request: wasi:http's
 * error codes carry no text (a guest sees only `HTTP-request-denied`), so the
 * host adds the reason to the run's stderr, where a failed tool's message is
 * taken from.
 */
export function createHttp(grant: NetworkGrant, ctx: HostContext, report: (reason: string) => void = () => undefined): Record<string, object> {
  const maxRequest = grant.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;

  class OutgoingBody {
    readonly sink = new BodySink(maxRequest);
    private stream: OutputStream | undefined;
    write(): OutputStream {
      if (this.stream !== undefined) throw undefined;
      this.stream = new OutputStream(this.sink, ctx);
      return this.stream;
    }
    static finish(_body: OutgoingBody): void {}
  }

  class OutgoingRequest {
    private m: Method = { tag: 'get' };
    private path: string | undefined;
    private sch: Scheme | undefined;
    private auth: string | undefined;
    private bodyTaken = false;
    readonly outBody = new OutgoingBody();
    constructor(private readonly hdrs: Fields) {
      hdrs.freeze();
    }
    body(): OutgoingBody {
      if (this.bodyTaken) throw undefined;
      this.bodyTaken = true;
      return this.outBody;
    }
    method(): Method {
      return this.m;
    }
    setMethod(m: Method): void {
      this.m = m;
    }
    pathWithQuery(): string | undefined {
      return this.path;
    }
    setPathWithQuery(p: string | undefined): void {
      this.path = p;
    }
    scheme(): Scheme | undefined {
      return this.sch;
    }
    setScheme(s: Scheme | undefined): void {
      this.sch = s;
    }
    authority(): string | undefined {
      return this.auth;
    }
    setAuthority(a: string | undefined): void {
      this.auth = a;
    }
    headers(): Fields {
      return this.hdrs;
    }
    url(): string {
      const scheme = this.sch === undefined || this.sch.tag === 'HTTPS' ? 'https' : this.sch.tag === 'HTTP' ? 'http' : this.sch.val;
      return `${scheme}://${this.auth ?? ''}${this.path ?? '/'}`;
    }
    methodName(): string {
      return this.m.tag === 'other' ? this.m.val : this.m.tag.toUpperCase();
    }
  }

  class RequestOptions {
    private connect: bigint | undefined;
    private firstByte: bigint | undefined;
    private between: bigint | undefined;
    connectTimeout(): bigint | undefined {
      return this.connect;
    }
    setConnectTimeout(d: bigint | undefined): void {
      this.connect = d;
    }
    firstByteTimeout(): bigint | undefined {
      return this.firstByte;
    }
    setFirstByteTimeout(d: bigint | undefined): void {
      this.firstByte = d;
    }
    betweenBytesTimeout(): bigint | undefined {
      return this.between;
    }
    setBetweenBytesTimeout(d: bigint | undefined): void {
      this.between = d;
    }
  }

  class FutureTrailers {
    private taken = false;
    subscribe(): Pollable {
      return new Pollable();
    }
    get(): unknown {
      if (this.taken) return { tag: 'err' };
      this.taken = true;
      return { tag: 'ok', val: { tag: 'ok', val: undefined } };
    }
  }

  class IncomingBody {
    private taken = false;
    constructor(private readonly bytes: Uint8Array) {}
    stream(): InputStream {
      if (this.taken) throw undefined;
      this.taken = true;
      return new InputStream(new BufferSource(this.bytes), ctx);
    }
    static finish(_body: IncomingBody): FutureTrailers {
      return new FutureTrailers();
    }
  }

  class IncomingResponse {
    private consumed = false;
    constructor(
      private readonly code: number,
      private readonly hdrs: Fields,
      private readonly body: Uint8Array,
    ) {}
    status(): number {
      return this.code;
    }
    headers(): Fields {
      return this.hdrs;
    }
    consume(): IncomingBody {
      if (this.consumed) throw undefined;
      this.consumed = true;
      return new IncomingBody(this.body);
    }
  }

  class FutureIncomingResponse {
    private taken = false;
    constructor(private readonly outcome: { tag: 'ok'; val: IncomingResponse } | { tag: 'err'; val: ErrorCode }) {}
    subscribe(): Pollable {
      return new Pollable();
    }
    get(): unknown {
      if (this.taken) return { tag: 'err' };
      this.taken = true;
      return { tag: 'ok', val: this.outcome };
    }
  }

  /** Server-side resources: part of wasi:http/types, never handed out by a client host. */
  class IncomingRequest {}
  class OutgoingResponse {
    private status = 200;
    constructor(private readonly hdrs: Fields) {}
    statusCode(): number {
      return this.status;
    }
    setStatusCode(s: number): void {
      this.status = s;
    }
    headers(): Fields {
      return this.hdrs;
    }
    body(): OutgoingBody {
      return new OutgoingBody();
    }
  }
  class ResponseOutparam {
    static set(): void {
      throw { tag: 'internal-error', val: 'moat does not serve incoming HTTP requests' };
    }
  }

  function handle(request: OutgoingRequest, _options: RequestOptions | undefined): FutureIncomingResponse {
    ctx.checkDeadline();
    const url = request.url();
    const checked = checkUrl(url, grant);
    if (!checked.ok) {
      report(checked.reason);
      throw refusalCode(checked);
    }
    const body = request.outBody.sink.bytes();
    const timeoutMs = Math.min(grant.timeoutMs ?? DEFAULT_NETWORK_TIMEOUT_MS, ctx.remainingMs());
    const res = fetchSync(
      {
        url,
        method: request.methodName(),
        headers: request.headers().toStrings(),
        ...(body.length > 0 ? { body: Buffer.from(body).toString('base64') } : {}),
        grant,
      },
      timeoutMs,
    );
    ctx.checkDeadline();
    if (!res.ok) {
      report(res.reason);
      return new FutureIncomingResponse({ tag: 'err', val: refusalCode(res) });
    }
    return new FutureIncomingResponse({ tag: 'ok', val: new IncomingResponse(res.status, Fields.frozen(res.headers), res.body) });
  }

  return {
    'wasi:http/types': {
      Fields,
      OutgoingRequest,
      OutgoingBody,
      RequestOptions,
      FutureIncomingResponse,
      IncomingResponse,
      IncomingBody,
      FutureTrailers,
      IncomingRequest,
      OutgoingResponse,
      ResponseOutparam,
      httpErrorCode: (): undefined => undefined,
    },
    'wasi:http/outgoing-handler': { handle },
  };
}
