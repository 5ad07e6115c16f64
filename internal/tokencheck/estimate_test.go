package tokencheck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/run"
)

// samples are real text in the scripts an agent meets, and the shapes that
// tokenize least and most densely.
var samples = []struct{ name, text string }{
	{"English prose", "A looping or confused agent burns money: every model call and tool call succeeds, and the run never ends. The run budget today limits retries only, and a tool repeated with the same input. Users of other ecosystems rely on usage limits for requests, tokens and tool calls."},
	{"Go code", "func (r *Run) StartRequest(estimate int) error {\n\tif refused := r.startRequest(estimate); refused != nil {\n\t\treturn refused\n\t}\n\treturn nil\n}\n"},
	{"JSON arguments", `{"order_id":"4471","items":[{"sku":"KT-200","qty":1},{"sku":"MG-12","qty":2}],"ship_to":{"city":"Lyon","zip":"69002"}}`},
	{"German", "Ein Agent, der in einer Schleife feststeckt, verbrennt Geld: Jeder Aufruf gelingt, und der Lauf endet nie. Größere Übersetzungsaufträge benötigen längere Wörter."},
	{"Russian", "Агент, застрявший в цикле, тратит деньги: каждый вызов модели и инструмента успешен, а запуск никогда не заканчивается."},
	{"Chinese", "一个陷入循环的智能体会不断烧钱：每一次模型调用和工具调用都成功了，但运行永远不会结束。"},
	{"Japanese", "ループに陥ったエージェントはお金を浪費します。モデルの呼び出しもツールの呼び出しもすべて成功しますが、実行は決して終わりません。"},
	{"Hindi", "एक लूप में फंसा एजेंट पैसे जलाता है: हर मॉडल कॉल और टूल कॉल सफल होता है, और रन कभी खत्म नहीं होता।"},
	{"Arabic", "الوكيل العالق في حلقة يحرق المال: كل استدعاء للنموذج والأداة ينجح، والتشغيل لا ينتهي أبدًا."},
	{"Emoji", "🚀🔥✅❌🤖💸🧪📦🔁⏱️🙂👍🏽👨‍👩‍👧‍👦🇫🇷"},
	{"Whitespace run", strings.Repeat(" ", 64) + "x"},
}

// estimate returns what a wrapped model estimates for a request of text:
// the Need of the refusal of a run whose token budget is one token.
func estimate(t *testing.T, text string) int {
	t.Helper()
	m, err := llms.New(scripted.New())
	if err != nil {
		t.Fatal(err)
	}
	ctx := run.New(context.Background(), run.TokenBudget(1))
	_, err = m.GenerateContent(ctx, []lcllms.MessageContent{lcllms.TextParts(lcllms.ChatMessageTypeHuman, text)})
	var refused *run.UsageLimitError
	if !errors.As(err, &refused) || refused.Need == 0 {
		t.Fatalf("a request of %d bytes under a budget of 1 token: got %v, want a refusal naming its estimate", len(text), err)
	}
	return refused.Need
}

// The estimate is low by at most four times for the text it counts: these
// tokenizers make at most one token of a byte. The table is what
// docs/performance.md shows.
func TestEstimateAgainstRealTokenizers(t *testing.T) {
	tiktoken.SetBpeLoader(loader.NewOfflineLoader())
	encodings := []string{"cl100k_base", "o200k_base"}
	var table strings.Builder
	fmt.Fprintf(&table, "| text | bytes | estimate | %s tokens | %s tokens |\n|---|---:|---:|---:|---:|\n", encodings[0], encodings[1])
	for _, s := range samples {
		est := estimate(t, s.text)
		fmt.Fprintf(&table, "| %s | %d | %d |", s.name, len(s.text), est)
		for _, name := range encodings {
			enc, err := tiktoken.GetEncoding(name)
			if err != nil {
				t.Fatal(err)
			}
			n := len(enc.Encode(s.text, nil, nil))
			if n > len(s.text) || n > 4*est {
				t.Errorf("%s, %s: %d tokens for %d bytes, estimated at %d: more than four times the estimate", s.name, name, n, len(s.text), est)
			}
			fmt.Fprintf(&table, " %d (%.2fx) |", n, float64(n)/float64(est))
		}
		table.WriteByte('\n')
	}
	t.Logf("tokens (ratio to the estimate):\n%s", table.String())
}
