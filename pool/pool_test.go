package pool_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/pool"
)

func newPool(t *testing.T, n int, picker pool.Picker) *pool.Pool {
	t.Helper()
	s := pool.Settings{Picker: picker}
	for i := range n {
		s.Members = append(s.Members, pool.MemberSettings{Name: fmt.Sprintf("m%d", i),
			Breaker: breaker.New(breaker.Settings{Name: fmt.Sprintf("m%d", i)})})
	}
	p, err := pool.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTryTakeSpreadsOverUntriedMembers: the attempts of one call go to
// members no attempt of it went to while there are some, in pools small
// and past 64 members (where the call's sets of members grow past a
// word), under every strategy; then to the others again.
func TestTryTakeSpreadsOverUntriedMembers(t *testing.T) {
	for _, n := range []int{3, 64, 70, 130} {
		for _, picker := range []pool.Picker{pool.LeastInFlight{}, pool.RoundRobin{}, pool.LowestLatency{}} {
			t.Run(fmt.Sprintf("%d/%v", n, picker), func(t *testing.T) {
				p := newPool(t, n, picker)
				rt := p.Route(t.Context())
				seen := map[string]bool{}
				var tickets []pool.Ticket
				for i := range n + 1 {
					tk, vs, _, err := rt.TryTake(t.Context(), i > 0)
					if tk.Member() == nil {
						t.Fatalf("attempt %d took no member: %v, %v", i+1, vs, err)
					}
					name := tk.Member().Name()
					if i < n && seen[name] {
						t.Fatalf("attempt %d went to %s again, with untried members left", i+1, name)
					}
					if !rt.Tried(tk.Member()) {
						t.Errorf("attempt %d: %s is not marked tried", i+1, name)
					}
					seen[name] = true
					tickets = append(tickets, tk)
				}
				for _, tk := range tickets {
					tk.Record(breaker.Healthy, 0)
					tk.Done()
				}
				for _, st := range p.Members() {
					if st.InFlight != 0 {
						t.Errorf("%s has %d attempts in flight after every ticket was done", st.Name, st.InFlight)
					}
				}
			})
		}
	}
}

// TestSpentMembersTakeNoAttempt: a member that gave up on the call gets
// none of its later attempts, past 64 members too; with every member
// spent, no member takes the attempt and the views say why.
func TestSpentMembersTakeNoAttempt(t *testing.T) {
	p := newPool(t, 70, nil)
	rt := p.Route(t.Context())
	for i := range 70 {
		tk, _, _, _ := rt.TryTake(t.Context(), i > 0)
		if tk.Member() == nil {
			t.Fatalf("attempt %d took no member with %d members not spent", i+1, 70-i)
		}
		rt.Spend(tk.Member())
		tk.Done()
	}
	tk, vs, waitOn, err := rt.TryTake(t.Context(), true)
	if tk.Member() != nil || waitOn != nil || err != nil {
		t.Fatalf("with every member spent: ticket on %v, wait on %v, %v", tk.Member(), waitOn, err)
	}
	if vs.AnyReady() || !strings.Contains(vs.String(), "m69: its own retries spent") {
		t.Errorf("views %v, want every member spent", vs)
	}
}

// TestNewRefusesBadMembers: a pool without members, a member without a
// name, two of one name and a negative weight are refused, each named.
func TestNewRefusesBadMembers(t *testing.T) {
	if _, err := pool.New(pool.Settings{}); err == nil {
		t.Error("a pool without members was built")
	}
	_, err := pool.New(pool.Settings{Members: []pool.MemberSettings{{}, {Name: "a"}, {Name: "a"}, {Name: "b", Weight: -1}}})
	for _, want := range []string{"member 0 has no name", `two members are named "a"`, `member "b": weight -1 is negative`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want it to say %s", err, want)
		}
	}
}

// ExamplePool_Members reads what a pool knows of its members: here, a new
// pool of two, the second of weight 2.
func ExamplePool_Members() {
	p, err := pool.New(pool.Settings{
		Members: []pool.MemberSettings{{Name: "eastus"}, {Name: "westus", Weight: 2}},
		Picker:  pool.RoundRobin{},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Picker())
	for _, m := range p.Members() {
		fmt.Printf("%s: weight %d, health %.1f, %d in flight\n", m.Name, m.Weight, m.Health, m.InFlight)
	}
	rt := p.Route(context.Background())
	t, _, _, _ := rt.TryTake(context.Background(), false)
	fmt.Println("first attempt to", t.Member().Name())
	t.Done()
	// Output:
	// round_robin
	// eastus: weight 1, health 1.0, 0 in flight
	// westus: weight 2, health 1.0, 0 in flight
	// first attempt to westus
}

// TestForcedOpenMemberKeepsItsSuspension: a member suspended for an
// account failure and forced open says it is forced open, with no hold,
// and its state still shows how long the suspension lasts.
func TestForcedOpenMemberKeepsItsSuspension(t *testing.T) {
	p, err := pool.New(pool.Settings{Members: []pool.MemberSettings{
		{Name: "m0", MaxHold: time.Minute, Breaker: breaker.New(breaker.Settings{Name: "m0"})},
		{Name: "m1", MaxHold: time.Minute, Breaker: breaker.New(breaker.Settings{Name: "m1"})}}})
	if err != nil {
		t.Fatal(err)
	}
	m := p.Route(t.Context()).Views(false)[0].Member
	m.Breaker().ForceOpen()
	m.Suspend(`code "invalid_api_key", status 401`)
	v := p.Route(t.Context()).Views(false)[0]
	if v.Avail != pool.Open || !v.Forced || v.Left != 0 || v.String() != "m0: circuit forced open by an operator" {
		t.Errorf("view %+v (%q), want m0 forced open with no hold", v, v)
	}
	if st := p.Members()[0]; st.Suspended <= 0 || st.AccountFailure == "" {
		t.Errorf("state %+v, want the suspension and its account failure", st)
	}
}
