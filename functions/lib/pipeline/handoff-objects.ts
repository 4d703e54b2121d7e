// HTTP ingest hands each accepted request to the pipeline as an object in the ingest bucket; the object's
// key names the log source, so the log processor finds the source without a prefix lookup:
//   http/<sourceId>/<yyyy>/<mm>/<dd>/<hh>/<request id>
const HTTP_KEY = /^http\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//i;

export function httpObjectKey(sourceId: string, requestId: string, receivedAt: Date): string {
  const [date, time] = receivedAt.toISOString().split('T');
  return `http/${sourceId}/${date.replace(/-/g, '/')}/${time.slice(0, 2)}/${requestId}`;
}

/** The source id of an HTTP ingest object's key, or undefined for any other key. */
export function httpObjectSource(key: string): string | undefined {
  return HTTP_KEY.exec(key)?.[1];
}
