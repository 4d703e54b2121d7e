// The main thread's side: requests to the PantherFlow worker, each answered by a promise.
import type { PantherFlowMethod, PantherFlowRequest, PantherFlowResponse, Params, Result } from './protocol';

/** A worker, or anything that carries messages the same way. */
export interface PantherFlowPort {
  postMessage(request: PantherFlowRequest): void;
  onmessage: ((event: MessageEvent<PantherFlowResponse>) => void) | null;
  terminate(): void;
}

export interface PantherFlowClient {
  request<M extends PantherFlowMethod>(method: M, params: Params<M>): Promise<Result<M>>;
  /** Stops the worker; requests still waiting are refused. */
  dispose(): void;
}

export function createPantherFlowClient(port: PantherFlowPort): PantherFlowClient {
  const pending = new Map<number, { resolve: (result: never) => void; reject: (error: Error) => void }>();
  let next = 0;
  port.onmessage = ({ data }) => {
    const waiting = pending.get(data.id);
    if (!waiting) return;
    pending.delete(data.id);
    if ('error' in data) waiting.reject(new Error(data.error));
    else waiting.resolve(data.result as never);
  };
  return {
    request(method, params) {
      const id = ++next;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        port.postMessage({ id, method, params });
      });
    },
    dispose() {
      port.terminate();
      for (const waiting of pending.values()) waiting.reject(new Error('The PantherFlow worker has stopped.'));
      pending.clear();
    },
  };
}
