// Outbound network access: the door. The one guarded HTTP client (refuses link-local and cloud metadata
// addresses always, loopback and private ranges unless allowed; a timeout; a size cap), used by alert delivery
// and by lookup tables fetching enrichment-provider data from a URL.
export {
  ANSWER_READ_BYTES,
  ANSWER_TEXT_CHARS,
  DEFAULT_TIMEOUT_MS,
  OutboundError,
  refusedAddress,
  retryAfterSeconds,
  send,
  type OutboundAnswer,
  type OutboundOptions,
  type OutboundRequest,
} from './outbound';
