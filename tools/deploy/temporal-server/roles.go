package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.temporal.io/server/common/api"
	"go.temporal.io/server/common/authorization"
)

// A merchant's backend through the client package: start, signal, Update (update-with-start is
// ExecuteMultiOperation) and cancel, which runs the compensation. The stock roles are
// namespace-wide: a writer may also terminate, reset and delete, which skip a workflow's
// compensation, and poll its task queues as a worker would (docs/operations.md, "Who may do what").
var backendCalls = []string{
	"StartWorkflowExecution",
	"SignalWorkflowExecution",
	"SignalWithStartWorkflowExecution",
	"UpdateWorkflowExecution",
	"ExecuteMultiOperation",
	"RequestCancelWorkflowExecution",
}

// The calls each of cardflow's own roles makes beyond reading its namespace. An operator's
// `cardflow` CLI makes a backend's calls (cancel; retry is a new start, acknowledge an Update)
// and keeps the reconciliation Schedule (`cardflow reconcile --schedule`).
var roleCalls = map[string][]string{
	"backend":  backendCalls,
	"operator": append(slices.Clone(backendCalls), "CreateSchedule", "UpdateSchedule"),
}

// isCardflowRole says whether a permission's role is one of cardflow's (not a stock one).
func isCardflowRole(role string) bool {
	_, ok := roleCalls[role]
	return ok
}

// authorizer allows what the stock authorizer allows for the stock roles (reader, writer, admin,
// system-wide or per namespace), and in a namespace where the caller holds one of cardflow's
// roles, that role's calls. Reading is the stock reader role, which the claim mapper adds to
// every cardflow role.
type authorizer struct {
	stock authorization.Authorizer
}

func (a authorizer) Authorize(
	ctx context.Context,
	claims *authorization.Claims,
	target *authorization.CallTarget,
) (authorization.Result, error) {
	result, err := a.stock.Authorize(ctx, claims, target)
	if err != nil || result.Decision == authorization.DecisionAllow {
		return result, err
	}
	method := api.MethodName(target.APIName)
	if claims != nil && strings.HasPrefix(target.APIName, api.WorkflowServicePrefix) {
		roles, _ := claims.Extensions.(namespaceRoles)
		for _, role := range roles[target.Namespace] {
			if slices.Contains(roleCalls[role], method) {
				return authorization.Result{Decision: authorization.DecisionAllow}, nil
			}
		}
	}
	subject := "a caller without a role"
	if claims != nil && claims.Subject != "" {
		subject = claims.Subject
	}
	return authorization.Result{
		Decision: authorization.DecisionDeny,
		Reason:   fmt.Sprintf("%s may not call %s in namespace %q", subject, method, target.Namespace),
	}, nil
}
