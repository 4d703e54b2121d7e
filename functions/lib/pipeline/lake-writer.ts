// Collects normalized events per log type and event hour and writes them to the lake as gzip NDJSON files
// with deterministic names (lake-layout.ts), so processing an object again overwrites what it wrote before.
// Memory stays bounded: a partition's file is written once it holds `partBytes` of text, and the largest
// partitions are written early when all of them together hold more than `bufferBytes`.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { NormalizedEvent } from '../../../core/schemas/normalize';
import { LOGS_DATABASE, partitionPath, tableName } from '../../../core/lake/layout';
import { lakeObjectName, type InputObject } from './lake-layout';

const gzipAsync = promisify(gzip);

/** Where lake files go: the lake bucket on AWS and locally, a folder in tests and the bench. */
export interface LakeSink {
  put(key: string, body: Buffer): Promise<void>;
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
    private readonly input: InputObject,
    private readonly sink: LakeSink,
    options: LakeWriterOptions = {},
  ) {
    this.partBytes = options.partBytes ?? 32 * 1024 * 1024;
    this.bufferBytes = options.bufferBytes ?? 64 * 1024 * 1024;
  }

  add(logType: string, event: NormalizedEvent): void {
    const path = partitionPath(LOGS_DATABASE, tableName(logType), String(event.p_event_time ?? ''));
    let partition = this.partitions.get(path);
    if (!partition) {
      partition = { logType, path, lines: [], size: 0, parts: 0 };
      this.partitions.set(path, partition);
    }
    const line = JSON.stringify(event);
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

  /** Writes everything held and answers every file written for the input object. */
  async finish(): Promise<WrittenObject[]> {
    for (const partition of this.partitions.values()) if (partition.lines.length) await this.write(partition);
    return this.written;
  }

  private async write(partition: Partition): Promise<void> {
    const { lines } = partition;
    const body = await gzipAsync(Buffer.from(lines.join('\n') + '\n', 'utf8'));
    const key = `${partition.path}/${lakeObjectName(this.input, partition.logType, partition.parts)}`;
    this.held -= partition.size;
    partition.lines = [];
    partition.size = 0;
    partition.parts++;
    await this.sink.put(key, body);
    this.written.push({ key, logType: partition.logType, events: lines.length });
  }
}
