package main

import (
	"context"
	"fmt"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
)

// Scenario 5: three wrapped layers over a persistent failure.

// nestedPolicies wrap three layers where the policy has layers to wrap: an
// application, a framework and a client each adding their own retry.
func nestedPolicies() []Policy {
	ps := policies()
	return []Policy{
		{Name: ps[0].Name + ", 1 layer", Model: ps[0].Model},
		{Name: ps[1].Name + ", its 2 layers", Model: ps[1].Model},
		{Name: fmt.Sprintf("%s twice, around %s", ps[4].Name, openaiGo.name()), Model: func(r rig) (lcllms.Model, error) {
			llm, err := r.client(r.server, openaiGo.transport(r.transport, r.ts))
			return retried(retried(llm, r.ts), r.ts), err
		}},
		{Name: "resilient.Model in 3 layers", Library: true, Model: func(r rig) (lcllms.Model, error) {
			return newNested(r, 3)
		}},
	}
}

// newNested wraps the openai client in layers of resilient.Model, each with
// the scaled defaults: resilient.Model(resilient.Model(resilient.Model(llm))).
func newNested(r rig, layers int) (lcllms.Model, error) {
	llm, err := r.evidenceClient(r.server)
	if err != nil {
		return nil, err
	}
	var m lcllms.Model = llm
	for range layers {
		w := resilient.Model(m, build[resilient.ModelOption](modelDefaults(), r.ts)...)
		if err := w.Err(); err != nil {
			return nil, err
		}
		m = w
	}
	return m, nil
}

type nestedResult struct {
	requests int
	ok       bool
	wall     time.Duration
}

// nestedRequests makes one logical call through p against a server that
// always answers 529 and returns what it cost.
func nestedRequests(p Policy) (r nestedResult, err error) {
	err = withServer(p, defaultScale, faultserver.Overloaded(), func(rg rig, c Caller) error {
		start := time.Now()
		r.ok = c.Call(context.Background()) == nil
		r.wall = time.Since(start)
		r.requests = rg.server.Count()
		return nil
	})
	return r, err
}

func nested(cfg config) (section, error) {
	ps := nestedPolicies()
	res, err := repeat(cfg, ps, true, nestedRequests)
	if err != nil {
		return section{}, err
	}
	sec := section{number: 5, title: "Nested layers over a persistent failure",
		setup: "Every request gets a 529 \"overloaded\". One logical call goes through the policy's layers: three " +
			"where the policy can be stacked, as an application, a framework and a client library might each add " +
			"their own; for the stacked retry layers, their two. Lower bound: the attempts of one layer, 3.",
		table: table{header: []string{"policy", "requests", "succeeded", "wall time"}}}
	for i, p := range ps {
		runs := res[i]
		requests := collect(runs, func(r nestedResult) float64 { return float64(r.requests) })
		sec.table.add(p.Name, requests.count(),
			fmt.Sprint(runs[0].ok),
			collect(runs, func(r nestedResult) float64 { return ms(r.wall) }).millis())
		if p.Library {
			lo, hi := requests.bounds()
			sec.targets = append(sec.targets, target{scenario: 5, what: "resilient.Model in three nested layers makes exactly 3 requests",
				measured: requests.count(), pass: lo == 3 && hi == 3})
		}
	}
	sec.notes = append(sec.notes, "An inner resilient layer that gives up returns its final error; an outer "+
		"layer recognizes it and passes it through instead of retrying it again.")
	return sec, nil
}
