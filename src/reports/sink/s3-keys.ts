import type { S3StoreConfig } from '../../config/report-store.js';

/**
 * How an S3 store names its objects: the bucket's prefix, then the sink's key; `s3://bucket/object` for
 * people.
 */
export function s3KeyNaming(config: Pick<S3StoreConfig, 'bucket' | 'prefix'>) {
  const objectKey = (key: string) => `${config.prefix}${key}`;
  return {
    objectKey,
    sinkKey: (object: string) => object.slice(config.prefix.length),
    locate: (key: string) => `s3://${config.bucket}/${objectKey(key)}`,
  };
}
