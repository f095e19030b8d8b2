/** Environment variables global setup hands to every test worker. */
export const testEnvKeys = {
  address: 'BANKFLOW_TEST_TEMPORAL_ADDRESS',
  namespace: 'BANKFLOW_TEST_TEMPORAL_NAMESPACE',
  bundle: 'BANKFLOW_TEST_WORKFLOW_BUNDLE',
  tracedBundle: 'BANKFLOW_TEST_WORKFLOW_BUNDLE_TRACED',
  /** The build id of the run's workflow code: the plain bundle's hash, which a traced worker shares. */
  buildId: 'BANKFLOW_TEST_WORKFLOW_BUILD_ID',
  uiUrl: 'BANKFLOW_TEST_TEMPORAL_UI_URL',
  /** Temporal's time-skipping test server executable (test/helpers/time-skipping.ts starts one per file). */
  timeSkippingServer: 'BANKFLOW_TEST_TIME_SKIPPING_SERVER',
} as const;
