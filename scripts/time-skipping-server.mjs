#!/usr/bin/env node
// Prints the path of Temporal's time-skipping test server the tests use (TEMPORAL_TEST_SERVER, else the
// cached one), provisioning it with Maven on first use.
import { tsImport } from 'tsx/esm/api';

const { findTimeSkippingServer } = await tsImport('../test/setup/time-skipping-server.ts', import.meta.url);
try {
  console.log(await findTimeSkippingServer({ explicitPath: process.env.TEMPORAL_TEST_SERVER }));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
