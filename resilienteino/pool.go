package resilienteino

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/model"

	"github.com/resilientgo/resilient/internal/inspect"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
)

// Member makes m a member of a [Pool] guarded by opts, the middleware
// options that guard one member (middleware.Weight, RateLimit,
// MaxConcurrent, CircuitBreaker, NoBreaker, MaxHold...). Elsewhere the
// result is m. It is resilient.Member.
func Member(m model.BaseChatModel, opts ...middleware.Option) model.BaseChatModel {
	return &spec{BaseChatModel: m, opts: opts}
}

// Named gives m a name for errors, logs and events, for pool members and
// fallbacks that would otherwise look alike ("eu-west"). Elsewhere the
// result is m.
func Named(m model.BaseChatModel, name string) model.BaseChatModel {
	return &spec{BaseChatModel: m, name: name}
}

// spec is a model given a name or a member's options.
type spec struct {
	model.BaseChatModel
	name string
	opts []middleware.Option
}

// unwrapSpec returns the model under the Named and Member wrappers of m,
// the outermost name and the options.
func unwrapSpec(m model.BaseChatModel) (model.BaseChatModel, string, []middleware.Option) {
	var name string
	var opts []middleware.Option
	for {
		s, ok := m.(*spec)
		if !ok || s == nil {
			return m, name, opts
		}
		if name == "" {
			name = s.name
		}
		opts = append(s.opts[:len(s.opts):len(s.opts)], opts...)
		m = s.BaseChatModel
	}
}

// Pool returns one model over members, interchangeable deployments of the
// same model (two regions, several accounts): each attempt goes to one
// member chosen among the healthy ones, and a retry to another member, at
// once, so that a sick member costs a call one request. Each member has its
// own circuit breaker and, with [Member], its own limits; a member that
// answers with a Retry-After cools down for that long, and one whose key or
// quota fails is out of rotation for a while. The calls of one run stay on
// the member that answered them while it is healthy. Everything else is a
// [ChatModel]'s, once for the pool. It is resilient.Pool for Eino; see
// middleware.Members for the choice.
//
// Invalid members or options make Pool return an error naming each
// problem, with a model that answers every call with it.
func Pool(members []model.BaseChatModel, opts ...ModelOption) (*ChatModel, error) {
	cfg := configure(opts)
	if len(members) == 0 {
		cfg.errorf("Pool: a pool needs at least one member")
	}
	var clients []model.BaseChatModel
	var specs []middleware.Member
	taken := names{}
	for i, m := range members {
		inner, given, mopts := unwrapSpec(m)
		if inspect.IsNil(inner) {
			cfg.errorf("Pool: member %d is nil (%T)", i, inner)
			continue
		}
		if _, wrapped := inner.(*ChatModel); wrapped {
			cfg.errorf("Pool: member %d is already wrapped: give the provider client itself", i) // its retries would multiply the pool's
			continue
		}
		derived, provider, modelName := describe(inner)
		name := taken.claim(derived)
		if given != "" {
			if taken[given] {
				cfg.errorf("Pool: member %d is named %q like another", i, given)
				continue
			}
			name = given
		}
		taken[name] = true
		clients = append(clients, inner)
		specs = append(specs, middleware.Member{Name: name, Options: mopts,
			Target: observe.Target{Operation: observe.OperationChat, Provider: provider, Model: modelName}})
	}
	err := errors.Join(cfg.errs...)
	if err == nil {
		var w *ChatModel
		if w, err = buildPool(clients, specs, cfg, taken); err == nil {
			return w, nil
		}
	}
	return invalid(nil, err), err
}

func buildPool(clients []model.BaseChatModel, specs []middleware.Member, cfg modelConfig, taken names) (*ChatModel, error) {
	target := observe.Target{Operation: observe.OperationChat, Provider: specs[0].Target.Provider, Model: specs[0].Target.Model}
	memberNames := make([]string, len(specs))
	for i, s := range specs {
		memberNames[i] = s.Name
		if s.Target.Provider != target.Provider {
			target.Provider = "" // only when every member says the same
		}
		if s.Target.Model != target.Model {
			target.Model = ""
		}
	}
	name := cfg.name
	if name == "" {
		name = "pool(" + strings.Join(memberNames, ", ") + ")"
	}
	if taken[name] {
		return nil, fmt.Errorf("resilienteino: Pool: the pool is named %q like one of its members", name)
	}
	taken[name] = true
	target.Name = name
	c := &core{name: name, cfg: cfg, target: target}
	if err := c.buildPipelines(middleware.Members(specs...)); err != nil {
		return nil, err
	}
	w := &ChatModel{core: c, members: clients}
	return w, w.buildFallbacks(taken)
}
