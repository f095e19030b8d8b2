#!/usr/bin/env node
// Prints the path of SeaweedFS's `weed`, the S3-compatible object store of the S3 report tests and of
// `bankflow cluster` with CLUSTER_OBJECT_STORE_PORT (BANKFLOW_WEED, else the cached build), building it with
// Go into ~/.cache/bankflow on first use.
import { tsImport } from 'tsx/esm/api';

const { findWeed } = await tsImport('../devkit/object-store/weed-binary.ts', import.meta.url);
try {
  console.log(await findWeed({ explicitPath: process.env.BANKFLOW_WEED, cacheEnv: process.env }));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
