/**
 * Records the route of a key to the workflow running this activity, before the provider call
 * that will produce events naming it (platform/storage/route-store.ts): the receiver then finds the
 * workflow by that key alone. Written inside the activity, so it costs no Temporal action; on
 * every attempt, so a route lost with its store is written again before the call is resent. A
 * failed write fails the attempt before anything is sent.
 */
import { activityInfo } from '@temporalio/activity';
import { type RouteKind, type RouteRecorder, routeKey } from '../platform/storage/route-store';

/**
 * Records `kind:value → this activity's workflow id`; nothing without a recorder (a unit test's
 * deps) or outside a workflow.
 */
export async function recordRoute(routes: RouteRecorder | undefined, kind: RouteKind, value: string): Promise<void> {
  const workflowId = activityInfo().workflowExecution?.workflowId;
  if (!routes || !workflowId || value === '') return;
  await routes.record(routeKey(kind, value), workflowId);
}
