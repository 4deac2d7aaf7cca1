/**
 * The definitions (domain/workflows.ts) derive what saved histories recorded: every child a parent
 * started (its id, its CardflowFlow, CardflowCustomerRef and CardflowOrderNos, and the
 * `startAttributes` its input carried) and every merchantOrderNo a workflow sent. A definition that
 * derived another id or key would make new runs differ from the runs the histories replay.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkflowTypes, WORKFLOWS, type WorkflowType } from '../../../domain/workflows';
import { childIdOf, startAttributesOf, type AnyWorkflowDefinition } from '../../../domain/workflow-definition';
import { WORKFLOW_VERSIONING } from '../../../domain/workflow-versioning';

interface Payload {
  data?: string;
}
interface HistoryEvent {
  startChildWorkflowExecutionInitiatedEventAttributes?: {
    workflowId: string;
    workflowType: { name: string };
    input: { payloads: Payload[] };
    searchAttributes?: { indexedFields?: Record<string, Payload> };
  };
  workflowExecutionStartedEventAttributes?: { workflowType: { name: string } };
  activityTaskScheduledEventAttributes?: { input?: { payloads?: Payload[] } };
}
interface SavedHistory {
  file: string;
  workflowId: string;
  events: HistoryEvent[];
}

const HISTORIES = join(__dirname, '../../fixtures/histories');

function histories(): SavedHistory[] {
  const files = [
    ...readdirSync(HISTORIES).map((name) => join(HISTORIES, name)),
    ...readdirSync(join(HISTORIES, 'earlier-build')).map((name) => join(HISTORIES, 'earlier-build', name)),
  ].filter((file) => file.endsWith('.json'));
  return files.map((file) => {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { workflowId: string; history: { events: HistoryEvent[] } };
    return { file, workflowId: saved.workflowId, events: saved.history.events };
  });
}

function decode(payload: Payload | undefined): unknown {
  return payload?.data === undefined ? undefined : JSON.parse(Buffer.from(payload.data, 'base64').toString('utf8'));
}

function definitionOf(type: string): AnyWorkflowDefinition {
  expect(Object.keys(WORKFLOWS)).toContain(type);
  return WORKFLOWS[type as WorkflowType];
}

const saved = histories();

it('finds the saved histories and the children they started', () => {
  expect(saved.length).toBeGreaterThan(20);
  const children = saved.flatMap((h) => h.events.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes));
  expect(children.length).toBeGreaterThan(20);
});

it.each(saved.map((h) => [h.file.slice(HISTORIES.length + 1), h] as const))(
  '%s: each child started as its definition derives it',
  (_name, history) => {
    for (const event of history.events) {
      const started = event.startChildWorkflowExecutionInitiatedEventAttributes;
      if (!started) continue;
      const definition = definitionOf(started.workflowType.name);
      const { startAttributes: recorded, ...input } = decode(started.input.payloads[0]) as {
        startAttributes: { customerRef?: string; orderNos?: string[] };
      };
      const suffix = started.workflowId.slice(history.workflowId.length + 1);
      expect(childIdOf(definition, history.workflowId, suffix === definition.childStep ? undefined : suffix)).toBe(
        started.workflowId,
      );
      // The deposit address a parent routes at start is known only at run time.
      const routeBy = definition === WORKFLOWS.walletFunding ? recorded.orderNos : undefined;
      const derived = startAttributesOf(definition, started.workflowId, input, {
        ...(recorded.customerRef ? { customerRef: recorded.customerRef } : {}),
        ...(routeBy ? { routeBy } : {}),
      });
      expect(derived).toEqual(recorded);
      const fields = started.searchAttributes?.indexedFields ?? {};
      expect(decode(fields.CardflowFlow)).toBe(definition.flow);
      expect(decode(fields.CardflowCustomerRef)).toBe(derived.customerRef);
      expect(decode(fields.CardflowOrderNos)).toEqual(derived.orderNos);
    }
  },
);

it.each(saved.map((h) => [h.file.slice(HISTORIES.length + 1), h] as const))(
  '%s: every merchantOrderNo sent is one its definition derives',
  (_name, history) => {
    const type = history.events[0]?.workflowExecutionStartedEventAttributes?.workflowType.name ?? '';
    const definition = definitionOf(type);
    // The card entity keys each request by its requestId (entityOrderStep), not by its id alone.
    if (definition === WORKFLOWS.cardEntity) return;
    const keys = Object.values(definition.orderKeys(history.workflowId) as Record<string, string>);
    for (const event of history.events) {
      for (const payload of event.activityTaskScheduledEventAttributes?.input?.payloads ?? []) {
        const sent = JSON.stringify(decode(payload)).match(/"merchantOrderNo":"(CF[0-9a-f]+)"/);
        if (sent) expect(keys).toContain(sent[1]);
      }
    }
  },
);

it('names every definition by its type and declares its versioning there', () => {
  for (const [type, definition] of Object.entries(WORKFLOWS)) {
    expect(definition.type).toBe(type);
    expect(WorkflowTypes[type as WorkflowType]).toBe(type);
    expect(WORKFLOW_VERSIONING[type as WorkflowType]).toBe(definition.versioning);
  }
  expect(WORKFLOW_VERSIONING.cardEntity).toBe('AUTO_UPGRADE');
});
