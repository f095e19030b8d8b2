import { versionChecks } from '../../src/doctor/deployment-checks.js';
import type { DeploymentTarget, VersionView } from '../../src/temporal/deployments.js';

const target = {
  deploymentName: 'bankflow',
  taskQueue: 'bankflow',
  namespace: 'default',
} as DeploymentTarget;

const version = (buildId: string, fields: Partial<VersionView>): VersionView => ({
  buildId,
  state: 'inactive',
  rampPercent: null,
  openPinned: 0,
  openAutoUpgrade: 0,
  pollers: 0,
  createdAt: null,
  ...fields,
});

describe("doctor's reading of a deployment's versions", () => {
  it('fails a ramp and pinned runs that no worker of their version serves, naming the way out', () => {
    const checks = versionChecks(target, [
      version('new-build', { state: 'ramping', rampPercent: 10, openPinned: 1 }),
      version('old-build', { state: 'current', pollers: 2 }),
    ]);
    expect(checks).toEqual([
      { name: 'current version', ok: true, detail: 'old-build, 2 poller(s) on bankflow' },
      {
        name: 'ramping version',
        ok: false,
        detail: 'new-build takes 10% of new runs but no worker of it polls: those runs wait',
        fix: 'start its workers, or end the ramp: bankflow deployments ramp new-build --percent 0',
      },
      {
        name: 'pinned runs',
        ok: false,
        detail: 'new-build: 1 open run(s) pinned to it, no worker polls',
        fix: expect.stringMatching(
          /^start the workers of new-build, or move their runs to the current version as docs\/upgrading-workflows\.md says/,
        ),
      },
    ]);
  });

  it('fails a current version nothing polls, offering a version that has workers', () => {
    const [current] = versionChecks(target, [
      version('stopped', { state: 'current' }),
      version('running', { state: 'inactive', pollers: 1 }),
    ]);
    expect(current).toEqual({
      name: 'current version',
      ok: false,
      detail: 'stopped is current but no worker of it polls bankflow: new runs wait',
      fix: 'start its workers (the build stopped came from), or bankflow deployments promote running',
    });
  });

  it('passes served ramps and pinned runs', () => {
    expect(
      versionChecks(target, [
        version('new-build', { state: 'ramping', rampPercent: 25, openPinned: 3, pollers: 1 }),
        version('old-build', { state: 'current', openPinned: 2, pollers: 1 }),
      ]).map(({ name, ok }) => ({ name, ok })),
    ).toEqual([
      { name: 'current version', ok: true },
      { name: 'ramping version', ok: true },
      { name: 'pinned runs', ok: true },
    ]);
  });
});
