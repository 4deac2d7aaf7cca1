/**
 * The SDK tags everything an activity records through its context's meter with `activityType`;
 * this activity interceptor renames it `activity_type`, the snake_case the SDK's own `temporal_`
 * metrics and cardflow's labels use (docs/observability.md, "Label names"). The `namespace` and
 * `taskQueue` the worker's meter adds after this hook stay as the SDK spells them. The workflow
 * side does the same for `workflowType` (workflows/interceptors/outcome-metrics.ts).
 */
import type { ActivityInterceptorsFactory } from '@temporalio/worker';

export const snakeCaseActivityMetricTags: ActivityInterceptorsFactory = () => ({
  outbound: {
    getMetricTags: (input, next) => {
      const { activityType, ...tags } = next(input);
      return activityType === undefined ? tags : { ...tags, activity_type: activityType };
    },
  },
});
