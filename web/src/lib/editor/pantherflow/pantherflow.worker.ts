// The PantherFlow language services in a web worker, so checking a long query never holds up typing.
import type { PantherFlowRequest } from './protocol';
import { createPantherFlowService } from './service';

const answer = createPantherFlowService();

self.onmessage = (event: MessageEvent<PantherFlowRequest>) => {
  self.postMessage(answer(event.data));
};
