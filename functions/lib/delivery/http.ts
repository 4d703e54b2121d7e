// Delivery's view of the shared guarded outbound client (functions/lib/net): the payload builders and the
// sender import it from here.
export { OutboundError, retryAfterSeconds, send, type OutboundAnswer, type OutboundOptions, type OutboundRequest } from '../net';
