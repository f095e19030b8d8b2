import { loadConfig } from '../../src/config.js';
import { workerConfig, type WorkerEnv } from '../../src/config/worker.js';
import { workflowBuildId } from '../../src/temporal/worker-deployment.js';
import * as workflows from '../../src/workflows/index.js';
import { problemsOf } from '../helpers/config-env.js';

const workerEnv = (overrides: Partial<WorkerEnv> = {}): WorkerEnv => ({
  TEMPORAL_MAX_CACHED_WORKFLOWS: 50,
  METRICS_HOST: '127.0.0.1',
  TEMPORAL_DEPLOYMENT_NAME: undefined,
  WORKER_SHUTDOWN_GRACE_SECONDS: 30,
  ...overrides,
});

describe('worker deployments', () => {
  it('pins every workflow type the worker registers, the long-lived ones too', () => {
    const workflowOptions = Object.entries(workflows).map(([type, workflow]) => ({
      type,
      options: (workflow as { workflowDefinitionOptions?: unknown }).workflowDefinitionOptions,
    }));
    expect(workflowOptions).toEqual(
      Object.keys(workflows).map((type) => ({ type, options: { versioningBehavior: 'PINNED' } })),
    );
  });

  it('names a build by its workflow code: the same code the same id, other code another', () => {
    expect(workflowBuildId('bundle one')).toBe(workflowBuildId('bundle one'));
    expect(workflowBuildId('bundle one')).not.toBe(workflowBuildId('bundle two'));
    expect(workflowBuildId('bundle one')).toMatch(/^[0-9a-f]{20}$/);
  });

  it("promotes a worker's own version only where asked: never in production unless set, always in development", () => {
    const production = { BANKFLOW_ENV: 'production' as const, TEMPORAL_TASK_QUEUE: 'bankflow' };
    expect(workerConfig({ ...workerEnv(), ...production }).deployment).toEqual({
      name: 'bankflow',
      promotion: 'never',
    });
    expect(
      workerConfig({
        ...workerEnv({ WORKER_VERSION_PROMOTION: 'if-no-current', TEMPORAL_DEPLOYMENT_NAME: 'payments' }),
        ...production,
      }).deployment,
    ).toEqual({ name: 'payments', promotion: 'if-no-current' });
    expect(
      loadConfig({ BANKFLOW_ENV: 'development', TEMPORAL_TASK_QUEUE: 'shop-a' }).temporal.deployment,
    ).toEqual({ name: 'shop-a', promotion: 'always' });
    expect(problemsOf({ BANKFLOW_ENV: 'development', WORKER_VERSION_PROMOTION: 'sometimes' })).toMatch(
      /WORKER_VERSION_PROMOTION/,
    );
  });
});
