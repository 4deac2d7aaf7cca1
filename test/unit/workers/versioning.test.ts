import { configured } from '../../support/configured';
/**
 * workers/versioning.ts and the behavior table: the variables, the build id, the first version
 * made current only on a fresh deployment (never over an operator's choice), and every registered
 * workflow carrying its behavior.
 */
import { temporal } from '@temporalio/proto';
import { WORKFLOW_VERSIONING } from '../../../domain/workflow-versioning';
import { WorkflowTypes } from '../../../domain/workflows';
import { registerWorkflows } from '../../../workflows/registry';
import { entryModuleExports } from '../../support/bundle-reach';
import { bootstrapCurrentVersion, versioningSettings } from '../../../workers/versioning';
import { buildIdOf } from '../../../platform/telemetry/build-id';

describe('versioningSettings', () => {
  it('defaults: versioned, deployment cardflow, first version made current', () => {
    expect(versioningSettings(configured({}))).toEqual({
      enabled: true,
      deploymentName: 'cardflow',
      bootstrap: 'first',
    });
  });

  it('reads every variable', () => {
    expect(
      versioningSettings(
        configured({
          CARDFLOW_DEPLOYMENT_NAME: 'cards-eu',
          CARDFLOW_WORKER_VERSIONING: 'off',
          CARDFLOW_DEPLOYMENT_BOOTSTRAP: 'always',
          CARDFLOW_WORKFLOW_BUNDLE: '/opt/b/workflow-bundle.js',
        }),
      ),
    ).toEqual({
      enabled: false,
      deploymentName: 'cards-eu',
      bootstrap: 'always',
      bundlePath: '/opt/b/workflow-bundle.js',
    });
  });

  it('names every malformed variable at once', () => {
    expect(() =>
      versioningSettings(
        configured({
          CARDFLOW_DEPLOYMENT_NAME: 'cards.eu',
          CARDFLOW_WORKER_VERSIONING: 'yes',
          CARDFLOW_DEPLOYMENT_BOOTSTRAP: 'sometimes',
        }),
      ),
    ).toThrow(
      /CARDFLOW_DEPLOYMENT_NAME: may hold only letters, digits, - and _[\s\S]*CARDFLOW_WORKER_VERSIONING: must be on or off[\s\S]*CARDFLOW_DEPLOYMENT_BOOTSTRAP: must be on, always or off/,
    );
  });
});

describe('buildIdOf', () => {
  it('is 16 hex digits of the bundle, the same for the same code and different for other code', () => {
    const a = buildIdOf('exports.customerOnboarding = 1;');
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(buildIdOf('exports.customerOnboarding = 1;')).toBe(a);
    expect(buildIdOf('exports.customerOnboarding = 2;')).not.toBe(a);
  });
});

/** A WorkflowService with the two deployment calls, answering from `state`. */
function fakeService(state: { registered: boolean; current?: string; changedTime?: boolean; notFoundTimes?: number }) {
  const sets: Array<{ buildId?: string | null; conflictToken?: Uint8Array | null }> = [];
  const service = {
    async describeWorkerDeployment() {
      if (state.notFoundTimes) {
        state.notFoundTimes -= 1;
        throw Object.assign(new Error('5 NOT_FOUND: deployment not found'), { code: 5 });
      }
      return temporal.api.workflowservice.v1.DescribeWorkerDeploymentResponse.fromObject({
        conflictToken: new Uint8Array([7]),
        workerDeploymentInfo: {
          versionSummaries: state.registered ? [{ deploymentVersion: { deploymentName: 'd', buildId: 'b1' } }] : [],
          routingConfig: {
            ...(state.current ? { currentDeploymentVersion: { deploymentName: 'd', buildId: state.current } } : {}),
            ...(state.changedTime ? { currentVersionChangedTime: { seconds: 1 } } : {}),
          },
        },
      });
    },
    async setWorkerDeploymentCurrentVersion(request: { buildId?: string | null; conflictToken?: Uint8Array | null }) {
      sets.push(request);
      return {};
    },
  };
  return { connection: { workflowService: service } as never, sets };
}

const version = { deploymentName: 'd', buildId: 'b1' };

describe('bootstrapCurrentVersion', () => {
  it('makes the version current on a fresh deployment, with the conflict token it read', async () => {
    const { connection, sets } = fakeService({ registered: true });
    await expect(bootstrapCurrentVersion(connection, { namespace: 'ns', version, identity: 'w' })).resolves.toEqual({
      outcome: 'made-current',
      current: 'b1',
    });
    expect(sets).toEqual([expect.objectContaining({ buildId: 'b1', conflictToken: new Uint8Array([7]) })]);
  });

  it('waits for the deployment and the version to be registered', async () => {
    const state = { registered: false, notFoundTimes: 2 };
    const { connection, sets } = fakeService(state);
    const done = bootstrapCurrentVersion(connection, { namespace: 'ns', version, identity: 'w', timeoutMs: 10_000 });
    setTimeout(() => (state.registered = true), 1_000);
    await expect(done).resolves.toMatchObject({ outcome: 'made-current' });
    expect(sets).toHaveLength(1);
  });

  it('leaves another current version alone', async () => {
    const { connection, sets } = fakeService({ registered: true, current: 'b0', changedTime: true });
    await expect(bootstrapCurrentVersion(connection, { namespace: 'ns', version, identity: 'w' })).resolves.toEqual({
      outcome: 'already-set',
      current: 'b0',
    });
    expect(sets).toEqual([]);
  });

  it('leaves a deployment an operator turned back to unversioned alone (a restart never undoes a rollback)', async () => {
    const { connection, sets } = fakeService({ registered: true, changedTime: true });
    await expect(bootstrapCurrentVersion(connection, { namespace: 'ns', version, identity: 'w' })).resolves.toEqual({
      outcome: 'already-set',
    });
    expect(sets).toEqual([]);
  });

  it('always: makes it current over another (npm start on its own dev server)', async () => {
    const { connection, sets } = fakeService({ registered: true, current: 'b0', changedTime: true });
    await bootstrapCurrentVersion(connection, { namespace: 'ns', version, identity: 'w', mode: 'always' });
    expect(sets).toEqual([expect.objectContaining({ buildId: 'b1' })]);
  });
});

describe('behaviors', () => {
  it('pins the onboarding and its children, and lets the card entity follow the current version', () => {
    for (const type of [
      WorkflowTypes.customerOnboarding,
      WorkflowTypes.cardholderOnboarding,
      WorkflowTypes.cardIssuance,
      WorkflowTypes.cardDeposit,
      WorkflowTypes.physicalCardActivation,
      WorkflowTypes.fundTransfer,
      WorkflowTypes.sharedAccount,
    ])
      expect(WORKFLOW_VERSIONING[type]).toBe('PINNED');
    expect(WORKFLOW_VERSIONING[WorkflowTypes.cardEntity]).toBe('AUTO_UPGRADE');
  });

  it('attaches a behavior to every registered workflow', () => {
    const workflows = registerWorkflows(entryModuleExports());
    const registered = Object.entries(workflows) as Array<[string, { workflowDefinitionOptions?: unknown }]>;
    expect(registered.map(([name]) => name).sort()).toEqual(Object.keys(WORKFLOW_VERSIONING).sort());
    for (const [, fn] of registered) expect(typeof fn.workflowDefinitionOptions).toBe('function');
  });
});
