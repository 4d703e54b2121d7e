// Transports without objects of their own (HTTP ingest, SQS sources) hand their data to the pipeline as an
// object in the ingest bucket; the object's key names the transport and the log source, so the log processor
// finds the source without a prefix lookup:
//   http/<sourceId>/<yyyy>/<mm>/<dd>/<hh>/<request id>
//   sqs/<sourceId>/<yyyy>/<mm>/<dd>/<hh>/<first message id of the batch>
export type HandOffTransport = 'http' | 'sqs';

const HANDOFF_KEY = /^(http|sqs)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//i;

export function handOffKey(transport: HandOffTransport, sourceId: string, id: string, receivedAt: Date): string {
  const [date, time] = receivedAt.toISOString().split('T');
  return `${transport}/${sourceId}/${date.replace(/-/g, '/')}/${time.slice(0, 2)}/${id}`;
}

/** The transport and source of a hand-off object's key, or undefined for any other key. */
export function handOffSource(key: string): { transport: HandOffTransport; sourceId: string } | undefined {
  const m = HANDOFF_KEY.exec(key);
  return m ? { transport: m[1] as HandOffTransport, sourceId: m[2] } : undefined;
}
