export function driverProxyAddress(endpoint: string): string;
export function applyDriverProxy(
  config: {
    wsProxy?: unknown;
    useSecureWebSocket?: boolean;
    pipelineTLS?: boolean;
    pipelineConnect?: unknown;
  },
  endpoint: string,
): void;
