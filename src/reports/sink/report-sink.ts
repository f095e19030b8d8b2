/** Writes one object's content chunk by chunk, so a large report never sits in memory whole. */
export type ChunkWriter = (write: (chunk: string) => Promise<void>) => Promise<void>;

/**
 * Where reports, their staged pages and metrics snapshots are kept, by key (`/`-separated, relative to the
 * sink's root). Every worker of a fleet must reach the same sink: a page staged by one worker is read by
 * whichever worker writes the report. A reader never sees a partial object: each is written whole or not at
 * all.
 */
export interface ReportSink {
  /** Where the object of `key` is, for people and results: a file path, or `s3://bucket/prefix/key`. */
  locate(key: string): string;
  put(key: string, text: string): Promise<void>;
  /** Writes the object from chunks, holding a bounded part of it in memory. */
  write(key: string, produce: ChunkWriter): Promise<void>;
  /** The object's text, or undefined when there is no such object. */
  get(key: string): Promise<string | undefined>;
  /** The keys that start with `prefix`, sorted. */
  list(prefix: string): Promise<string[]>;
  /** Removes every object whose key starts with `prefix`; nothing to remove is no error. */
  deletePrefix(prefix: string): Promise<void>;
}
