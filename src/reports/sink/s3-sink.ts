import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import type { S3StoreConfig } from '../../config/report-store.js';
import type { ChunkWriter, ReportSink } from './report-sink.js';
import { s3KeyNaming } from './s3-keys.js';

/**
 * A report larger than this goes up as a multipart upload of parts this size (S3's minimum part is 5 MiB), so
 * a worker holds one part and one page in memory whatever the report's size.
 */
export const multipartPartBytes = 8 * 1024 * 1024;

/** DeleteObjects takes at most this many keys. */
const deleteBatch = 1000;

export function s3Client(config: S3StoreConfig): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    forcePathStyle: config.forcePathStyle,
    // Checksums only where S3 requires them: several S3-compatible servers reject the SDK's default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * Objects in an S3-compatible bucket, shared by every worker that names it. A PUT replaces an object whole,
 * and a multipart upload appears only when it completes (an aborted one never does), so a reader sees the
 * previous report or the new one, never part of one.
 */
export function s3Sink(config: S3StoreConfig, client: S3Client = s3Client(config)): ReportSink {
  const { objectKey, sinkKey, locate } = s3KeyNaming(config);
  const Bucket = config.bucket;

  async function write(key: string, produce: ChunkWriter): Promise<void> {
    const Key = objectKey(key);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let uploadId: string | undefined;
    const parts: CompletedPart[] = [];

    const uploadPending = async () => {
      if (uploadId === undefined) {
        const created = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
        if (!created.UploadId) throw new Error(`S3 gave no upload id for ${Key}`);
        uploadId = created.UploadId;
      }
      const PartNumber = parts.length + 1;
      const body = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      const uploaded = await client.send(
        new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body: body }),
      );
      parts.push({ PartNumber, ETag: uploaded.ETag });
    };

    try {
      await produce(async (chunk) => {
        const bytes = Buffer.from(chunk, 'utf8');
        pending.push(bytes);
        pendingBytes += bytes.length;
        if (pendingBytes >= multipartPartBytes) await uploadPending();
      });
      if (uploadId === undefined) {
        await client.send(new PutObjectCommand({ Bucket, Key, Body: Buffer.concat(pending) }));
        return;
      }
      if (pendingBytes > 0) await uploadPending();
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      if (uploadId !== undefined) {
        await client
          .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId }))
          .catch(() => undefined);
      }
      throw error;
    }
  }

  async function list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const listed = await client.send(
        new ListObjectsV2Command({ Bucket, Prefix: objectKey(prefix), ContinuationToken }),
      );
      for (const object of listed.Contents ?? []) if (object.Key) keys.push(sinkKey(object.Key));
      ContinuationToken = listed.IsTruncated ? listed.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys.sort();
  }

  return {
    locate,
    put: (key, text) => write(key, (chunk) => chunk(text)),
    write,
    async get(key) {
      try {
        const got = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        return (await got.Body?.transformToString('utf8')) ?? '';
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw error;
      }
    },
    list,
    async deletePrefix(prefix) {
      const keys = await list(prefix);
      for (let start = 0; start < keys.length; start += deleteBatch) {
        const batch = keys.slice(start, start + deleteBatch);
        const deleted = await client.send(
          new DeleteObjectsCommand({
            Bucket,
            Delete: { Objects: batch.map((key) => ({ Key: objectKey(key) })), Quiet: true },
          }),
        );
        const failed = deleted.Errors ?? [];
        if (failed.length > 0) {
          throw new Error(
            `S3 kept ${failed.length} of ${batch.length} objects under ${objectKey(prefix)}: ` +
              `${failed[0]?.Code} ${failed[0]?.Message}`,
          );
        }
      }
    },
  };
}
