package main

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/server/common/authorization"
)

// namespaceRoles holds a caller's cardflow roles per namespace (Claims.Extensions).
type namespaceRoles map[string][]string

// uiSubject is the Web UI's certificate (CN=cardflow-ui, tools/scripts/make-certs.sh). The stock
// UI sends no token of its own (only a signed-in user's, where OIDC is set up), so without one its
// certificate names it, and it reads every namespace, as a token with temporal-system:read does.
const uiSubject = "cardflow-ui"

// claimMapper is the server's JWT claim mapper (signature by a key of the JWKS document, expiry,
// the stock roles of the `permissions` claim), plus cardflow's roles from the same claim, which
// the stock mapper does not know and ignores.
type claimMapper struct {
	jwt       authorization.ClaimMapper
	claimName string
}

func (m claimMapper) GetClaims(info *authorization.AuthInfo) (*authorization.Claims, error) {
	if info.AuthToken == "" {
		if info.TLSSubject != nil && info.TLSSubject.CommonName == uiSubject {
			return &authorization.Claims{Subject: uiSubject, System: authorization.RoleReader}, nil
		}
		// Any other certificate without a token: no role, so nothing but the health check.
		return &authorization.Claims{}, nil
	}
	claims, err := m.jwt.GetClaims(info)
	if err != nil {
		return nil, err
	}
	// The token was verified just now; its payload is read again for the roles the stock mapper skips.
	permissions, err := m.permissions(info.AuthToken)
	if err != nil {
		return nil, err
	}
	roles := namespaceRoles{}
	for _, permission := range permissions {
		namespace, role, found := strings.Cut(permission, ":")
		if !found || !isCardflowRole(role) {
			continue
		}
		roles[namespace] = append(roles[namespace], role)
		if claims.Namespaces == nil {
			claims.Namespaces = map[string]authorization.Role{}
		}
		// Every cardflow role reads its namespace: describe, query, results, lists.
		claims.Namespaces[namespace] |= authorization.RoleReader
	}
	claims.Extensions = roles
	return claims, nil
}

// permissions reads the permissions claim of a bearer token the stock mapper has verified.
func (m claimMapper) permissions(header string) ([]string, error) {
	_, token, _ := strings.Cut(header, " ")
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, serviceerror.NewPermissionDenied("malformed token", "")
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, serviceerror.NewPermissionDenied("malformed token payload", "")
	}
	var claims map[string]json.RawMessage
	if err := json.Unmarshal(payload, &claims); err != nil {
		return nil, serviceerror.NewPermissionDenied("malformed token payload", "")
	}
	var permissions []string
	if raw, ok := claims[m.claimName]; ok {
		if err := json.Unmarshal(raw, &permissions); err != nil {
			return nil, serviceerror.NewPermissionDenied("the permissions claim is not a list of strings", "")
		}
	}
	return permissions, nil
}
