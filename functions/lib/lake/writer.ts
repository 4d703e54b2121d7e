// Rows into the lake: one writer for any table. Rows are gathered per log type's table and hour partition
// (core/lake/layout: `<database>/<table>/year=/month=/day=/hour=/`, the hour of each row's p_event_time) and
// written as gzip NDJSON files whose names the caller takes from core/lake/layout, deterministic, so writing the
// same rows again overwrites what was written before. LakeWriter is the streaming form (the log processor's
// events): memory stays bounded, a partition's file is written once it holds `partBytes` of text, and the largest
// partitions are written early when all of them together hold more than `bufferBytes`. writeLakeRows writes rows
// held at once (detections' signals and rule errors): one file per partition.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { partitionPath, tableName, type LakeDatabase } from '../../../core/lake/layout';
import { s3 } from '../clients';
import { lakeBucketName } from './bucket';

const gzipAsync = promisify(gzip);

type Row = Record<string, unknown>;

/** Where lake files go: the lake bucket on AWS and locally, a folder in tests and the bench. */
export interface LakeSink {
  put(key: string, body: Buffer): Promise<void>;
}

/** The lake bucket (LAKE_BUCKET, or the bucket named) as a sink: gzip NDJSON objects. */
export function lakeBucketSink(bucket?: string): LakeSink {
  return {
    put: async (key, body) => {
      await s3().send(
        new PutObjectCommand({
          Bucket: bucket ?? lakeBucketName(),
          Key: key,
          Body: body,
          ContentType: 'application/x-ndjson',
          ContentEncoding: 'gzip',
        }),
      );
    },
  };
}

export interface WrittenObject {
  readonly key: string;
  readonly logType: string;
  readonly events: number;
}

export interface LakeWriterOptions {
  /** Text size at which a partition's file is written (default 32 MiB). */
  readonly partBytes?: number;
  /** Text held over all partitions before the largest are written early (default 64 MiB). */
  readonly bufferBytes?: number;
}

/** What a writer writes: its database, and the name of the `part`th file of a log type's rows in one partition. */
export interface LakeTarget {
  readonly database: LakeDatabase;
  readonly name: (logType: string, part: number) => string;
}

interface Partition {
  readonly logType: string;
  readonly path: string;
  lines: string[];
  size: number;
  parts: number;
}

export class LakeWriter {
  private readonly partitions = new Map<string, Partition>();
  private readonly written: WrittenObject[] = [];
  private held = 0;
  private readonly partBytes: number;
  private readonly bufferBytes: number;

  constructor(
    private readonly target: LakeTarget,
    private readonly sink: LakeSink,
    options: LakeWriterOptions = {},
  ) {
    this.partBytes = options.partBytes ?? 32 * 1024 * 1024;
    this.bufferBytes = options.bufferBytes ?? 64 * 1024 * 1024;
  }

  /** A row of a log type's table, into the partition of its p_event_time. */
  add(logType: string, row: Row): void {
    const path = partitionPath(this.target.database, tableName(logType), String(row.p_event_time ?? ''));
    let partition = this.partitions.get(path);
    if (!partition) {
      partition = { logType, path, lines: [], size: 0, parts: 0 };
      this.partitions.set(path, partition);
    }
    const line = JSON.stringify(row);
    partition.lines.push(line);
    partition.size += line.length + 1;
    this.held += line.length + 1;
  }

  /** Writes the partitions that have grown past the limits; call between batches of records. */
  async drain(): Promise<void> {
    for (const partition of this.partitions.values()) if (partition.size >= this.partBytes) await this.write(partition);
    while (this.held > this.bufferBytes) {
      const largest = [...this.partitions.values()].reduce((a, b) => (b.size > a.size ? b : a));
      await this.write(largest);
    }
  }

  /** Writes everything held and answers every file written. */
  async finish(): Promise<WrittenObject[]> {
    for (const partition of this.partitions.values()) if (partition.lines.length) await this.write(partition);
    return this.written;
  }

  private async write(partition: Partition): Promise<void> {
    const { lines } = partition;
    const body = await gzipAsync(Buffer.from(lines.join('\n') + '\n', 'utf8'));
    const key = `${partition.path}/${this.target.name(partition.logType, partition.parts)}`;
    this.held -= partition.size;
    partition.lines = [];
    partition.size = 0;
    partition.parts++;
    await this.sink.put(key, body);
    this.written.push({ key, logType: partition.logType, events: lines.length });
  }
}

/**
 * Rows held at once into one database of the lake: each log type's rows into its table, one file per hour
 * partition named `name(logType)`, in the order the partitions were first met; the files written.
 */
export async function writeLakeRows(
  database: LakeDatabase,
  rows: Iterable<readonly [logType: string, row: Row]>,
  name: (logType: string) => string,
  options: { readonly bucket?: string; readonly sink?: LakeSink } = {},
): Promise<WrittenObject[]> {
  const all = Number.POSITIVE_INFINITY;
  const writer = new LakeWriter({ database, name }, options.sink ?? lakeBucketSink(options.bucket), {
    partBytes: all,
    bufferBytes: all,
  });
  for (const [logType, row] of rows) writer.add(logType, row);
  return writer.finish();
}
