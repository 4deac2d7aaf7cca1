// The Temporal server cardflow runs: go.temporal.io/server at the version go.mod requires (the
// one docker-compose.yml names), with cardflow's authorizer and claim mapper compiled in
// (roles.go, claims.go), because the stock roles cannot let a backend start and cancel a workflow
// while refusing it a terminate. The command line is the stock temporal-server's (--root,
// --config, --env, start --service), so cluster.yaml and every launcher stay as they are. Built
// by tools/scripts/temporal-server.sh.
package main

import (
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path"
	"strings"

	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/headers"
	"go.temporal.io/server/common/log"
	_ "go.temporal.io/server/common/persistence/sql/sqlplugin/postgresql"
	"go.temporal.io/server/temporal"
)

// The name cluster.yaml gives both the authorizer and the claim mapper. A stock server refuses
// to start on it ("unknown authorizer"), so the configuration never runs without the roles.
const cardflowAuth = "cardflow"

type services []string

func (s *services) String() string     { return strings.Join(*s, ",") }
func (s *services) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "temporal-server: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	global := flag.NewFlagSet("temporal-server", flag.ContinueOnError)
	root := global.String("root", ".", "root directory of execution environment")
	configDir := global.String("config", "config", "config dir path relative to root")
	env := global.String("env", "development", "runtime environment")
	version := global.Bool("version", false, "print the server version")
	if err := global.Parse(args); err != nil {
		return err
	}
	if *version {
		fmt.Printf("temporal-server version %s (cardflow roles)\n", headers.ServerVersion)
		return nil
	}
	if global.Arg(0) != "start" {
		return errors.New("usage: temporal-server [--root DIR] [--config DIR] [--env NAME] start [--service NAME]...")
	}
	start := flag.NewFlagSet("start", flag.ContinueOnError)
	var chosen services
	start.Var(&chosen, "service", "a service to start (repeatable; default every configured one)")
	if err := start.Parse(global.Args()[1:]); err != nil {
		return err
	}
	cfg, err := config.LoadConfig(*env, path.Join(*root, *configDir), "")
	if err != nil {
		return fmt.Errorf("unable to load configuration: %w", err)
	}
	if len(chosen) == 0 {
		// Every service the configuration gives ports to: the internal frontend where it has one.
		for _, name := range temporal.Services {
			if _, ok := cfg.Services[name]; ok {
				chosen = append(chosen, name)
			}
		}
	}
	logger := log.NewZapLogger(log.BuildZapLogger(cfg.Log))
	dynamicConfig := dynamicconfig.Client(dynamicconfig.NewNoopClient())
	if cfg.DynamicConfigClient != nil {
		dynamicConfig, err = dynamicconfig.NewFileBasedClient(cfg.DynamicConfigClient, logger, temporal.InterruptCh())
		if err != nil {
			return fmt.Errorf("unable to create the dynamic config client: %w", err)
		}
	}
	options := []temporal.ServerOption{
		temporal.ForServices(chosen),
		temporal.WithConfig(cfg),
		temporal.WithDynamicConfigClient(dynamicConfig),
		temporal.WithLogger(logger),
		temporal.InterruptOn(temporal.InterruptCh()),
	}
	roles, err := rolesOptions(&cfg.Global.Authorization, logger)
	if err != nil {
		return err
	}
	server, err := temporal.NewServer(append(options, roles...)...)
	if err != nil {
		return fmt.Errorf("unable to create the server: %w", err)
	}
	return server.Start()
}

// rolesOptions compiles cardflow's roles in where the configuration names them. A configuration
// naming neither (the compose stack's, until it runs this build) gets the stock behaviour, so
// this build also stands in for the upstream server image; naming only one of the two is an error.
func rolesOptions(auth *config.Authorization, logger log.Logger) ([]temporal.ServerOption, error) {
	if auth.Authorizer != cardflowAuth && auth.ClaimMapper != cardflowAuth {
		return nil, nil
	}
	if auth.Authorizer != cardflowAuth || auth.ClaimMapper != cardflowAuth {
		return nil, fmt.Errorf("global.authorization: authorizer and claimMapper must both be %q, or neither", cardflowAuth)
	}
	// jwtKeyProvider.keySourceURIs may name a file (file:///run/secrets/jwks.json): the stock key
	// provider fetches them with net/http, which reads a file through this transport, again at
	// every refreshInterval (a key added or removed needs no restart).
	http.DefaultTransport.(*http.Transport).RegisterProtocol("file", http.NewFileTransport(http.Dir("/")))
	claimName := auth.PermissionsClaimName
	if claimName == "" {
		claimName = "permissions"
	}
	mapper := claimMapper{
		jwt:       authorization.NewDefaultJWTClaimMapper(authorization.NewDefaultTokenKeyProvider(auth, logger), auth, logger),
		claimName: claimName,
	}
	audience, err := authorization.GetAudienceMapperFromConfig(auth)
	if err != nil {
		return nil, fmt.Errorf("unable to instantiate the audience mapper: %w", err)
	}
	return []temporal.ServerOption{
		temporal.WithAuthorizer(authorizer{stock: authorization.NewDefaultAuthorizer()}),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper { return mapper }),
		temporal.WithAudienceGetter(func(*config.Config) authorization.JWTAudienceMapper { return audience }),
	}, nil
}
