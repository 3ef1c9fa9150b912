/** Client settings shared by the Bedrock and Vertex clients: moat decides retries, the SDKs stay silent. */
export interface CloudOptions {
  /** Undefined: the SDK's default endpoint for the region. */
  baseURL?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

const SILENT_LOGGER = { error: (): void => {}, warn: (): void => {}, info: (): void => {}, debug: (): void => {} };

export function cloudClientOptions(o: CloudOptions) {
  return {
    maxRetries: 0,
    logLevel: 'off' as const,
    logger: SILENT_LOGGER,
    ...(o.baseURL === undefined ? {} : { baseURL: o.baseURL }),
    ...(o.headers === undefined ? {} : { defaultHeaders: o.headers }),
    ...(o.timeoutMs === undefined ? {} : { timeout: o.timeoutMs }),
  };
}

