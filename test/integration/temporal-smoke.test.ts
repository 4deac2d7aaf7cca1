/**
 * The integration tier's own smoke test: a workflow with one activity runs on the real dev
 * server, and the project's search attributes are registered with their types and usable from
 * workflow code, from the client, and in visibility queries.
 */
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  cardflowSearchAttributes,
  CardflowCustomerRef,
  CardflowFlow,
  CardflowStage,
} from '../../domain/search-attributes';
import { createGreetingActivities } from '../fixtures/workflows/greeting-activities';
import { greetingWorkflow } from '../fixtures/workflows/greeting';
import {
  connectTestClient,
  runWithWorker,
  testTemporalServer,
  uniqueTaskQueue,
  type TestClient,
} from './support/temporal-env';

const workflowsPath = require.resolve('../fixtures/workflows/greeting');
// Bundling the workflow code and starting a Worker take seconds; `testTimeout` in a jest project
// entry is not applied (it is a global option), so the budget is set here.
jest.setTimeout(120_000);

let temporal: TestClient;
beforeAll(async () => {
  temporal = await connectTestClient();
});
afterAll(async () => {
  await temporal?.close();
});

test('registers every project search attribute with its type', async () => {
  const { namespace } = testTemporalServer();
  const { customAttributes } = await temporal.connection.operatorService.listSearchAttributes({ namespace });
  for (const key of cardflowSearchAttributes) {
    expect({ name: key.name, type: customAttributes?.[key.name] }).toEqual({
      name: key.name,
      type: encodeSearchAttributeIndexedValueType(key.type),
    });
  }
});

test('runs a workflow with an activity and search attributes on the real server', async () => {
  const flow = uniqueTaskQueue('smoke-flow');
  const activities = createGreetingActivities({ greeting: 'Hello' });

  const { handle, result } = await runWithWorker(
    { workflowsPath, activities, taskQueue: uniqueTaskQueue('smoke') },
    async ({ taskQueue }) => {
      const started = await temporal.client.workflow.start(greetingWorkflow, {
        taskQueue,
        workflowId: uniqueTaskQueue('smoke-greeting'),
        args: [{ name: 'Ada' }],
        typedSearchAttributes: [
          { key: CardflowFlow, value: flow },
          { key: CardflowCustomerRef, value: 'customer-ref-1' },
        ],
      });
      return { handle: started, result: await started.result() };
    },
  );

  expect(result).toEqual({ message: 'Hello, Ada!', stage: 'greeted' });
  const description = await handle.describe();
  expect(description.typedSearchAttributes.get(CardflowFlow)).toBe(flow);
  expect(description.typedSearchAttributes.get(CardflowCustomerRef)).toBe('customer-ref-1');
  expect(description.typedSearchAttributes.get(CardflowStage)).toBe('greeted');

  // Visibility is eventually consistent: wait (bounded) until the query sees the closed run.
  const query = `CardflowFlow = "${flow}" AND CardflowStage = "greeted"`;
  let count = 0;
  for (let attempt = 0; attempt < 50 && count === 0; attempt++) {
    count = (await temporal.client.workflow.count(query)).count;
    if (count === 0) await sleep(100);
  }
  expect(count).toBe(1);
});
