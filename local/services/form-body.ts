// Reads an application/x-www-form-urlencoded request body, up to a limit (the local identity provider and the
// hosted-UI endpoints take forms: the HTTP-POST binding, the token endpoint).
import type { IncomingMessage } from 'node:http';

export class FormBodyError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function readForm(req: IncomingMessage, maxBytes: number): Promise<URLSearchParams> {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    throw new FormBodyError('The body must be application/x-www-form-urlencoded.', 415);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new FormBodyError(`The body is larger than ${maxBytes} bytes.`, 413);
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
